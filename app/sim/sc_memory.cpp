// Sequentially consistent memory: the backing bytes are the memory.
#include "sim/atomic_ops.h"
#include "sim/memory.h"
#include "sim/memory_system.h"

namespace synclab::sim {

void ScMemory::load(WarpAccess& a) {
    for (uint32_t m = a.mask; m; m &= m - 1) {
        const uint32_t l = static_cast<uint32_t>(std::countr_zero(m));
        a.value[l] = load_bytes(a.host[l], a.size);
    }
}

void ScMemory::store(WarpAccess& a) {
    for (uint32_t m = a.mask; m; m &= m - 1) {
        const uint32_t l = static_cast<uint32_t>(std::countr_zero(m));
        store_bytes(a.host[l], a.size, a.value[l]);
    }
}

void ScMemory::atomic(WarpAccess& a) {
    for (uint32_t m = a.mask; m; m &= m - 1) {
        const uint32_t l = static_cast<uint32_t>(std::countr_zero(m));
        const uint64_t old = load_bytes(a.host[l], a.size);
        uint64_t result = old;
        // The executor checked atomic_supported() before issuing the access.
        apply_atomic(a.type, a.atom_op, old, a.value[l], a.operand_c[l], result);
        store_bytes(a.host[l], a.size, result);
        a.value[l] = old;
    }
}

} // namespace synclab::sim
