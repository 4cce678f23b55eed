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

// Per instruction: 1 where it is a global integer atom.add whose address and operand are
// warp-uniform by warp_uniform_registers, the atomics ptxas turns into one per warp.
std::vector<uint8_t> aggregatable_atomics(const ptx::Function& fn);

} // namespace synclab::sim
