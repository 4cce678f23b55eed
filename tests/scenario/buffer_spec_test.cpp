// The buf:TYPE:COUNT[:init] grammar (launch/launch.h) that lesson files and `synclab check --arg`
// share, with random=LO..HI: parsed, printed back, filled as documented, and rejected with a message
// that says which part is wrong.
#include "launch/launch.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

namespace synclab::launch {
namespace {

template <typename T> std::vector<T> values(const Buffer& b) {
    std::vector<T> v(b.bytes.size() / sizeof(T));
    std::memcpy(v.data(), b.bytes.data(), b.bytes.size());
    return v;
}

Buffer fill(const std::string& text, uint64_t seed = 1) {
    uint64_t rng = buffer_rng_seed(seed);
    return make_buffer(parse_buffer_spec(text), "b", rng);
}

std::string error_of(const std::string& text) {
    try {
        parse_buffer_spec(text);
    } catch (const SpecError& e) {
        return e.what();
    }
    return "";
}

TEST(BufferSpec, RandomRangeParsesAndPrintsBack) {
    const BufferSpec s = parse_buffer_spec("buf:i32:1024:random=1..999999");
    EXPECT_EQ(s.type, ElemType::I32);
    EXPECT_EQ(s.count, 1024u);
    EXPECT_EQ(s.init, BufferSpec::Init::Random);
    EXPECT_EQ(s.random_lo, 1);
    EXPECT_EQ(s.random_hi, 999999);
    EXPECT_EQ(to_string(s), "buf:i32:1024:random=1..999999");
    EXPECT_EQ(to_string(parse_buffer_spec("buf:i8:3:random=-8..8")), "buf:i8:3:random=-8..8");
    // Plain random is random=0..99 and prints as it always did.
    const BufferSpec plain = parse_buffer_spec("buf:f32:4:random");
    EXPECT_EQ(plain.random_lo, 0);
    EXPECT_EQ(plain.random_hi, 99);
    EXPECT_EQ(to_string(plain), "buf:f32:4:random");
    EXPECT_EQ(to_string(parse_buffer_spec("buf:u8:4:random=0..99")), "buf:u8:4:random");
}

TEST(BufferSpec, RandomRangeStaysInsideAndCoversIt) {
    const auto v = values<int32_t>(fill("buf:i32:4000:random=-3..3"));
    EXPECT_EQ(*std::min_element(v.begin(), v.end()), -3);
    EXPECT_EQ(*std::max_element(v.begin(), v.end()), 3);
    const auto f = values<float>(fill("buf:f32:4000:random=1..9"));
    for (float x : f)
        ASSERT_TRUE(x >= 1.0f && x <= 9.0f && x == static_cast<float>(static_cast<int>(x))) << x;
    EXPECT_EQ(*std::min_element(f.begin(), f.end()), 1.0f);
    EXPECT_EQ(*std::max_element(f.begin(), f.end()), 9.0f);
    const auto one = values<uint16_t>(fill("buf:u16:50:random=7..7"));
    EXPECT_TRUE(std::all_of(one.begin(), one.end(), [](uint16_t x) { return x == 7; }));
    // The ends of the types' exact ranges are reachable without overflow.
    const auto big = values<int64_t>(fill("buf:i64:64:random=-9223372036854775808..9223372036854775807"));
    EXPECT_NE(std::adjacent_find(big.begin(), big.end(), std::not_equal_to<>()), big.end());
    const auto f24 = values<float>(fill("buf:f32:64:random=16777215..16777216"));
    for (float x : f24)
        ASSERT_TRUE(x == 16777215.0f || x == 16777216.0f) << x;
}

// Plain random is the 0..99 draw it always was, so saved `synclab check` runs replay with the same
// data; the same seed gives the same contents, another seed others.
TEST(BufferSpec, RandomIsReplayable) {
    uint64_t state = buffer_rng_seed(5);
    const auto a = values<uint32_t>(fill("buf:u32:16:random", 5));
    for (uint32_t x : a) {
        uint64_t z = (state += 0x9e3779b97f4a7c15ull);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        EXPECT_EQ(x, (z ^ (z >> 31)) % 100);
    }
    EXPECT_EQ(fill("buf:i32:64:random=1..999999", 3).bytes, fill("buf:i32:64:random=1..999999", 3).bytes);
    EXPECT_NE(fill("buf:i32:64:random=1..999999", 3).bytes, fill("buf:i32:64:random=1..999999", 4).bytes);
    // One state serves the buffers of a launch in order: the second buffer continues the stream.
    uint64_t rng = buffer_rng_seed(9);
    const Buffer first = make_buffer(parse_buffer_spec("buf:u32:8:random"), "a", rng);
    const Buffer second = make_buffer(parse_buffer_spec("buf:u32:8:random"), "b", rng);
    EXPECT_NE(first.bytes, second.bytes);
    EXPECT_EQ(values<uint32_t>(fill("buf:u32:16:random", 9)), [&] {
        std::vector<uint32_t> both = values<uint32_t>(first);
        const auto rest = values<uint32_t>(second);
        both.insert(both.end(), rest.begin(), rest.end());
        return both;
    }());
}

TEST(BufferSpec, RandomRangeErrorsSayWhatIsWrong) {
    EXPECT_NE(error_of("buf:i32:4:random=9..1").find("needs LO <= HI"), std::string::npos);
    EXPECT_NE(error_of("buf:i32:4:random=1-9").find("random=LO..HI needs two whole numbers"),
              std::string::npos);
    EXPECT_NE(error_of("buf:i32:4:random=a..9").find("LO must be a whole number, got 'a'"),
              std::string::npos);
    EXPECT_NE(error_of("buf:i32:4:random=1..9.5").find("HI must be a whole number, got '9.5'"),
              std::string::npos);
    EXPECT_NE(error_of("buf:i32:4:random=1..").find("HI must be a whole number, got ''"), std::string::npos);
    EXPECT_NE(error_of("buf:u8:4:random=0..256").find("does not fit u8 (whole numbers 0..255"),
              std::string::npos);
    EXPECT_NE(error_of("buf:u32:4:random=-1..5").find("does not fit u32"), std::string::npos);
    EXPECT_NE(error_of("buf:f32:4:random=0..16777217").find("does not fit f32"), std::string::npos);
    EXPECT_NE(error_of("buf:i32:4:random=1..99999999999999999999").find("HI must be a whole number"),
              std::string::npos);
    const std::string unknown = error_of("buf:i32:4:rand");
    EXPECT_NE(unknown.find("unknown initialiser 'rand' (zero, iota, random, random=LO..HI, const=V)"),
              std::string::npos)
        << unknown;
    EXPECT_NE(error_of("buf:i32").find("buf:TYPE:COUNT[:zero|iota|random|random=LO..HI|const=V]"),
              std::string::npos);
}

TEST(BufferSpec, OtherInitialisersUnchanged) {
    EXPECT_EQ(values<int32_t>(fill("buf:i32:4:iota")), (std::vector<int32_t>{0, 1, 2, 3}));
    EXPECT_EQ(values<float>(fill("buf:f32:2:const=2.5")), (std::vector<float>{2.5f, 2.5f}));
    EXPECT_EQ(values<uint8_t>(fill("buf:u8:2:const=255")), (std::vector<uint8_t>{255, 255}));
    EXPECT_EQ(values<int64_t>(fill("buf:i64:1:const=-9000000000")), (std::vector<int64_t>{-9000000000}));
    // An integer element takes whole numbers of its range only (not truncated, not undefined).
    EXPECT_NE(
        error_of("buf:i32:4:const=1e30").find("const=1e30 is not a whole number -2147483648..2147483647"),
        std::string::npos);
    EXPECT_NE(error_of("buf:i32:4:const=2.9").find("is not a whole number"), std::string::npos);
    EXPECT_NE(error_of("buf:u8:4:const=-1").find("const=-1 is not a whole number 0..255 (what u8 holds)"),
              std::string::npos);
    EXPECT_NE(error_of("buf:i64:1:const=9223372036854775808").find("is not a whole number"),
              std::string::npos);
    EXPECT_EQ(values<uint32_t>(fill("buf:u32:3")), (std::vector<uint32_t>{0, 0, 0}));
}

} // namespace
} // namespace synclab::launch
