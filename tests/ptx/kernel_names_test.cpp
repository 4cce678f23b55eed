// Kernel names as users write them (ptx/kernel_names.h): plain C++ names find mangled kernels,
// templates and overloads are told apart, and a name that fits several lists them.
#include "ptx/kernel_names.h"
#include "ptx/parser.h"

#include <gtest/gtest.h>

namespace synclab::ptx {
namespace {

// Entries named as nvcc names them (the bodies do not matter here).
Module module_with(const std::vector<std::string>& names) {
    std::string text = ".version 8.0\n.target sm_75\n.address_size 64\n";
    for (const std::string& n : names)
        text += ".visible .entry " + n + "()\n{\n    ret;\n}\n";
    return parse_module(text, "names.ptx");
}

const Module& kernels() {
    static const Module m = module_with({
        "_Z9block_sumPKiPi",                 // block_sum(int const*, int*)
        "_Z11block_sum_tILj128ELb1EEvPKiPi", // void block_sum_t<128u, true>(int const*, int*)
        "_Z11block_sum_tILj64ELb0EEvPKiPi",  // void block_sum_t<64u, false>(int const*, int*)
        "_Z5scalePffi",                      // scale(float*, float, int)
        "_Z5scalePiii",                      // scale(int*, int, int)
        "_ZN3lab4fillEPii",                  // lab::fill(int*, int)
        "reverse_no_sync",                   // extern "C"
        "_ZN12_GLOBAL__N_14kernEPi",         // (anonymous namespace)::kern(int*)
        "_ZN2ns12_GLOBAL__N_14kernIiEEvPT_", // void ns::(anonymous namespace)::kern<int>(int*)
    });
    return m;
}

std::vector<std::string> found(std::string_view name) {
    std::vector<std::string> out;
    for (const Function* f : find_kernels(kernels(), name))
        out.push_back(f->name);
    return out;
}

using Names = std::vector<std::string>;

TEST(KernelNames, DemangleGivesTheSignature) {
    EXPECT_EQ(demangle("_Z9block_sumPKiPi"), "block_sum(int const*, int*)");
    EXPECT_EQ(demangle("_ZN3lab4fillEPii"), "lab::fill(int*, int)");
    EXPECT_EQ(demangle("reverse_no_sync"), "reverse_no_sync") << "not mangled: unchanged";
    EXPECT_EQ(demangle("_Zgarbage"), "_Zgarbage") << "not demanglable: unchanged";
}

TEST(KernelNames, PlainNamesFindMangledKernels) {
    EXPECT_EQ(found("block_sum"), Names{"_Z9block_sumPKiPi"});
    EXPECT_EQ(found("lab::fill"), Names{"_ZN3lab4fillEPii"});
    EXPECT_EQ(found("reverse_no_sync"), Names{"reverse_no_sync"});
    EXPECT_EQ(found("_Z5scalePffi"), Names{"_Z5scalePffi"}) << "the PTX name itself";
    EXPECT_TRUE(found("fill").empty()) << "a namespace is part of the name";
    EXPECT_TRUE(found("block").empty()) << "no prefix matching";
}

TEST(KernelNames, KernelsInAnUnnamedNamespace) {
    EXPECT_EQ(demangle("_ZN12_GLOBAL__N_14kernEPi"), "(anonymous namespace)::kern(int*)");
    EXPECT_EQ(found("kern"), Names{"_ZN12_GLOBAL__N_14kernEPi"});
    EXPECT_EQ(found("(anonymous namespace)::kern"), Names{"_ZN12_GLOBAL__N_14kernEPi"});
    EXPECT_EQ(found("kern(int*)"), Names{"_ZN12_GLOBAL__N_14kernEPi"});
    EXPECT_EQ(found("ns::kern"), Names{"_ZN2ns12_GLOBAL__N_14kernIiEEvPT_"});
    EXPECT_EQ(found("ns::kern<int>"), Names{"_ZN2ns12_GLOBAL__N_14kernIiEEvPT_"});
}

TEST(KernelNames, TemplatesAndOverloads) {
    EXPECT_EQ(found("block_sum_t"),
              (Names{"_Z11block_sum_tILj128ELb1EEvPKiPi", "_Z11block_sum_tILj64ELb0EEvPKiPi"}));
    EXPECT_EQ(found("block_sum_t<64, false>"), Names{"_Z11block_sum_tILj64ELb0EEvPKiPi"})
        << "the demangler's 64u is the user's 64";
    EXPECT_EQ(found("block_sum_t<128u,true>"), Names{"_Z11block_sum_tILj128ELb1EEvPKiPi"});
    EXPECT_EQ(found("scale"), (Names{"_Z5scalePffi", "_Z5scalePiii"}));
    EXPECT_EQ(found("scale(int*, int, int)"), Names{"_Z5scalePiii"});
    EXPECT_EQ(found("scale(float*,float,int)"), Names{"_Z5scalePffi"}) << "spaces do not matter";
}

TEST(KernelNames, AmbiguousAndUnknownNamesListTheCandidates) {
    try {
        require_kernel(kernels(), "scale", "names.ptx");
        FAIL() << "accepted an ambiguous name";
    } catch (const KernelLookupError& e) {
        const std::string what = e.what();
        EXPECT_NE(what.find("'scale' matches 2 kernels of names.ptx"), std::string::npos) << what;
        EXPECT_NE(what.find("scale(float*, float, int)   [_Z5scalePffi]"), std::string::npos) << what;
        EXPECT_NE(what.find("scale(int*, int, int)   [_Z5scalePiii]"), std::string::npos) << what;
    }
    try {
        require_kernel(kernels(), "nope", "names.ptx");
        FAIL() << "accepted an unknown name";
    } catch (const KernelLookupError& e) {
        const std::string what = e.what();
        EXPECT_NE(what.find("no kernel 'nope' in names.ptx"), std::string::npos) << what;
        EXPECT_NE(what.find("lab::fill(int*, int)   [_ZN3lab4fillEPii]"), std::string::npos) << what;
        EXPECT_NE(what.find("\n  reverse_no_sync"), std::string::npos) << what;
    }
    EXPECT_EQ(require_kernel(kernels(), "lab::fill(int*, int)", "names.ptx").name, "_ZN3lab4fillEPii");
}

} // namespace
} // namespace synclab::ptx
