// Which values of a kernel are the same in every lane of a warp, as far as the PTX alone shows
// (private to app/sim). The cost model needs it for one thing the compiler does after PTX: ptxas
// aggregates a warp's global atom.add when its address and operand are warp-uniform (see
// cost_model.h), so the simulator, which runs PTX, must know which atomics ptxas could prove so.
#pragma once

#include "ptx/ir.h"

#include <cstdint>
#include <vector>

namespace synclab::sim {

// Per register slot: 1 where every definition of the register computes the same value in every
// lane of a warp (parameters, constants, blockIdx/blockDim/gridDim and arithmetic on those, under a
// uniform guard), 0 otherwise. Conservative: a register defined twice (a loop variable, a value
// merged from two branches) or from a load, an atomic, a lane's index or clock is varying.
std::vector<uint8_t> warp_uniform_registers(const ptx::Function& fn);

// How ptxas aggregates a warp's global integer atom.add (GPU_FACTS.md, "Which contended atomics ptxas
// aggregates by itself"): address and operand warp-uniform: one ATOMG per warp, each lane's old value
// from its rank (VOTEU.ANY, POPC, SHFL.IDX), whether the result is used or not; only the address
// warp-uniform, a per-lane operand: REDUX.SUM and one REDG per warp, which needs the result unused
// (a used result would need each lane's prefix sum: not seen in SASS, so not assumed).
enum : uint8_t { kNotAggregated = 0, kUniformAdd = 1, kUniformAddress = 2 };

// Per instruction: kUniformAdd or kUniformAddress for a global integer atom.add whose address (and
// operand) are warp-uniform by warp_uniform_registers, else kNotAggregated.
std::vector<uint8_t> aggregatable_atomics(const ptx::Function& fn);

} // namespace synclab::sim
