// The compile library: nvcc and NVRTC turn CUDA C++ into PTX the simulator parses, with the build's
// flags plus the user's; failures carry the compiler's messages. Each test skips where its compiler
// is not installed (the simulator never needs either).
#include "compile/compile.h"
#include "ptx/kernel_names.h"
#include "ptx/parser.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <unistd.h>

namespace synclab::compile {
namespace {

const char* kKernel = R"(// two kernels, one a template
__global__ void add_one(int* g_data) { g_data[threadIdx.x] += 1; }
template <int N> __global__ void fill(int* g_data) { g_data[threadIdx.x] = N + VALUE; }
template __global__ void fill<3>(int*);
)";

std::string write_temp(const std::string& name, const std::string& text) {
    const std::string path = testing::TempDir() + "/" + std::to_string(getpid()) + "_" + name;
    std::ofstream(path) << text;
    return path;
}

TEST(Compile, BuildFlagsAreTheKernelFlags) {
    const std::vector<std::string> flags = build_flags();
    ASSERT_FALSE(flags.empty());
    EXPECT_NE(std::find(flags.begin(), flags.end(), "-ptx"), flags.end());
    EXPECT_NE(std::find(flags.begin(), flags.end(), "-lineinfo"), flags.end());
}

TEST(Compile, NvccMakesPtxWithTheUsersDefines) {
    if (!find_nvcc()) GTEST_SKIP() << "no nvcc here";
    const std::string path = write_temp("nvcc_ok.cu", kKernel);
    const Result r = compile_with_nvcc(path, Options{{"-DVALUE=40"}});
    EXPECT_EQ(r.compiler, "nvcc");
    const ptx::Module m = ptx::parse_module(r.ptx, "nvcc_ok.ptx");
    EXPECT_EQ(ptx::require_kernel(m, "add_one", "nvcc_ok.ptx").name, "_Z7add_onePi");
    const ptx::Function* fill = &ptx::require_kernel(m, "fill<3>", "nvcc_ok.ptx");
    bool saw_43 = false; // N + VALUE folded into one immediate
    for (const ptx::Instruction& in : fill->code)
        for (const ptx::Operand& op : in.ops)
            saw_43 = saw_43 || (op.kind == ptx::Operand::Kind::Imm && op.imm == 43);
    EXPECT_TRUE(saw_43) << r.ptx;
    std::remove(path.c_str());
}

TEST(Compile, NvccErrorsCarryItsMessages) {
    if (!find_nvcc()) GTEST_SKIP() << "no nvcc here";
    const std::string path = write_temp("nvcc_bad.cu", "__global__ void k(int* p) { p[0] = undeclared; }\n");
    try {
        compile_with_nvcc(path);
        FAIL() << "compiled";
    } catch (const CompileError& e) {
        EXPECT_NE(std::string(e.what()).find("nvcc failed"), std::string::npos) << e.what();
        EXPECT_NE(e.log().find("undeclared"), std::string::npos) << e.log();
        EXPECT_NE(e.log().find("(1)"), std::string::npos) << "the log names the line: " << e.log();
    }
    std::remove(path.c_str());
}

TEST(Compile, NvrtcMakesPtxWithLineInfo) {
    std::string why;
    if (!nvrtc_available(&why)) GTEST_SKIP() << why;
    const Result r = compile_with_nvrtc(kKernel, "inline.cu", Options{{"-DVALUE=1"}});
    EXPECT_TRUE(r.compiler.starts_with("NVRTC ")) << r.compiler;
    const ptx::Module m = ptx::parse_module(r.ptx, "inline.ptx");
    const ptx::Function* k = &ptx::require_kernel(m, "add_one", "inline.ptx");
    bool has_line = false;
    for (const ptx::Instruction& in : k->code)
        has_line = has_line || in.source_line == 2;
    EXPECT_TRUE(has_line) << "-lineinfo: the kernel's instructions name source line 2";
    ASSERT_GT(m.files.size(), 1u);
    EXPECT_NE(m.files[1].find("inline.cu"), std::string::npos);
}

// Without nvcc, a .cu that includes a header beside it still compiles: NVRTC is told the .cu's folder.
TEST(Compile, NvrtcFindsHeadersBesideTheFile) {
    std::string why;
    if (!nvrtc_available(&why)) GTEST_SKIP() << why;
    const std::filesystem::path dir =
        std::filesystem::path(testing::TempDir()) / ("nvrtc_" + std::to_string(getpid()));
    std::filesystem::create_directories(dir);
    std::ofstream(dir / "value.h") << "#define VALUE 1234567\n";
    std::ofstream(dir / "k.cu") << "#include \"value.h\"\n__global__ void k(int* p) { p[0] = VALUE; }\n";
    setenv("SYNCLAB_NVCC", "none", 1);
    const Result r = compile_file((dir / "k.cu").string());
    unsetenv("SYNCLAB_NVCC");
    EXPECT_TRUE(r.compiler.starts_with("NVRTC")) << r.compiler;
    EXPECT_NE(r.ptx.find("1234567"), std::string::npos) << r.ptx;
    std::filesystem::remove_all(dir);
}

// The fence lessons use cuda::atomic_ref: NVRTC finds <cuda/atomic> in the toolkit as nvcc does,
// and both make the same release store and acquire load.
TEST(Compile, NvrtcFindsTheToolkitsHeaders) {
    std::string why;
    if (!nvrtc_available(&why)) GTEST_SKIP() << why;
    setenv("SYNCLAB_NVCC", "none", 1);
    const Result r = compile_file(std::string(SYNCLAB_SOURCE_DIR) + "/kernels/message_passing.cu");
    unsetenv("SYNCLAB_NVCC");
    EXPECT_TRUE(r.compiler.starts_with("NVRTC")) << r.compiler;
    EXPECT_NE(r.ptx.find("st.release.gpu"), std::string::npos);
    EXPECT_NE(r.ptx.find("ld.acquire.gpu"), std::string::npos);
}

TEST(Compile, NvrtcErrorsCarryItsLog) {
    std::string why;
    if (!nvrtc_available(&why)) GTEST_SKIP() << why;
    try {
        compile_with_nvrtc("__global__ void k(int* p) { p[0] = undeclared; }\n", "bad.cu");
        FAIL() << "compiled";
    } catch (const CompileError& e) {
        EXPECT_NE(e.log().find("undeclared"), std::string::npos) << e.log();
    }
}

TEST(Compile, AMissingFileIsAClearError) {
    if (!find_nvcc() && !nvrtc_available()) GTEST_SKIP() << "no compiler here";
    try {
        compile_file("/nonexistent/kernel.cu");
        FAIL() << "compiled";
    } catch (const CompileError& e) {
        EXPECT_NE(std::string(e.what()).find("/nonexistent/kernel.cu"), std::string::npos) << e.what();
    }
}

// Without nvcc and NVRTC the error says what to do instead. NVRTC is looked up once per process, so
// this runs in a fresh one (a threadsafe death test re-runs the binary for this test alone).
TEST(Compile, NoCompilerSaysWhatToDo) {
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    EXPECT_EXIT(
        {
            setenv("SYNCLAB_NVCC", "none", 1);
            setenv("SYNCLAB_NVRTC", "/nonexistent/libnvrtc.so", 1);
            try {
                compile_file("k.cu");
            } catch (const CompileError& e) {
                const std::string what = e.what();
                std::fprintf(stderr, "%s\n", what.c_str());
                std::exit(what.find("neither is here") != std::string::npos &&
                                  what.find("nvcc -ptx -lineinfo") != std::string::npos
                              ? 0
                              : 1);
            }
            std::exit(2);
        },
        testing::ExitedWithCode(0), "neither is here");
}

} // namespace
} // namespace synclab::compile
