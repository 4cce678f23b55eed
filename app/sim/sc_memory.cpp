// Sequentially consistent memory: the backing bytes are the memory.
#include "sim/atomic_ops.h"
#include "sim/memory.h"
#include "sim/memory_system.h"

#include <cstring>
#include <type_traits>

namespace synclab::sim {

namespace {

// The size switch outside the lane loop: each loop then is plain copies.
template <class F> void by_size(uint32_t size, F&& f) {
    switch (size) {
    case 1:
        f(std::type_identity<uint8_t>{});
        break;
    case 2:
        f(std::type_identity<uint16_t>{});
        break;
    case 4:
        f(std::type_identity<uint32_t>{});
        break;
    default:
        f(std::type_identity<uint64_t>{});
        break;
    }
}

} // namespace

void ScMemory::load(WarpAccess& a) {
    by_size(a.size, [&]<class T>(std::type_identity<T>) {
        for_each_lane(a.mask, [&](uint32_t l) {
            T v;
            std::memcpy(&v, a.host[l], sizeof(T));
            a.value[l] = v;
        });
    });
}

void ScMemory::store(WarpAccess& a) {
    by_size(a.size, [&]<class T>(std::type_identity<T>) {
        for_each_lane(a.mask, [&](uint32_t l) {
            const T v = static_cast<T>(a.value[l]);
            std::memcpy(a.host[l], &v, sizeof(T));
        });
    });
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
