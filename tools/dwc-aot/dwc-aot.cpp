//===- dwc-aot.cpp - ahead-of-time compiler for dwc programs --------------===//
//
// Turns a .mlir file of tensor-level func.func (dwc ops) into an x86-64
// object (PIC) holding the GPU binary, the host code and one C-ABI entry
// point per public function:
//   dwc_status dwc_<name>(const void *in0, ..., void *out0, ...)
// taking raw device pointers of dense row-major buffers (and
// dwc_<name>_trusted, the same without the driver's per-pointer query),
// plus a C/C++ header declaring them. The object links against
// libdwc_runtime.
//
//===----------------------------------------------------------------------===//

#include "dwc/Dialect/Dwc/IR/DwcDialect.h"
#include "dwc/Dialect/Dwc/Transforms/BufferizableOpInterfaceImpl.h"
#include "dwc/Dialect/Dwc/IR/DwcTarget.h"
#include "dwc/Dialect/Dwc/Transforms/Passes.h"
#include "dwc/Pipelines/Pipelines.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Target/LLVM/NVVM/Target.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Target/LLVMIR/Export.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Target/TargetOptions.h"
#include "llvm/TargetParser/Host.h"

#include <string>
#include <vector>

using namespace mlir;
namespace cl = llvm::cl;

static cl::OptionCategory aotCategory("dwc-aot options");

static cl::opt<std::string> inputFile(cl::cat(aotCategory), cl::Positional,
                                      cl::desc("<input.mlir>"), cl::init("-"));
static cl::opt<std::string> outputFile(cl::cat(aotCategory), "o",
                                       cl::desc("Output file"),
                                       cl::value_desc("file"), cl::init("-"));
static cl::opt<std::string>
    headerFile(cl::cat(aotCategory), "header",
               cl::desc("Write the C/C++ header of the entry points"),
               cl::value_desc("file"), cl::init(""));
enum class EmitKind { Obj, LLVM, MLIR };
static cl::opt<EmitKind> emitKind(
    cl::cat(aotCategory), "emit", cl::desc("What to write to -o"),
    cl::init(EmitKind::Obj),
    cl::values(clEnumValN(EmitKind::Obj, "obj", "x86-64 object (default)"),
               clEnumValN(EmitKind::LLVM, "llvm", "LLVM IR with entry points"),
               clEnumValN(EmitKind::MLIR, "mlir",
                          "MLIR (LLVM dialect) after the pipeline")));
static cl::opt<std::string> pipelineKind(
    cl::cat(aotCategory), "pipeline",
    cl::desc("Lowering: 'dwc' (dwc-to-nvvm, default) or 'upstream' "
             "(gpu-kernel-outlining + gpu-lower-to-nvvm-pipeline, for "
             "memref-level gpu.launch modules)"),
    cl::init("dwc"));
static cl::opt<std::string> targetTriple(cl::cat(aotCategory), "target-triple",
                                         cl::desc("Host target triple"),
                                         cl::init(""));
static cl::opt<std::string> targetCpu(cl::cat(aotCategory), "target-cpu",
                                      cl::desc("Host CPU for the object"),
                                      cl::init("x86-64"));
static cl::opt<bool> keepMlirSymbols(
    cl::cat(aotCategory), "keep-mlir-symbols",
    cl::desc("Keep the MLIR-generated host functions (<name>, "
             "_mlir_ciface_<name>) external instead of internal"),
    cl::init(false));
static cl::opt<bool> helpPipeline(
    cl::cat(aotCategory), "help-pipeline",
    cl::desc("List the dwc-to-nvvm pipeline options (--chip, --opt-level, "
             "...) and exit"),
    cl::init(false));
static cl::opt<unsigned> alignment(cl::cat(aotCategory), "alignment",
                                   cl::desc("Required pointer alignment"),
                                   cl::init(16));

namespace {

/// The dwc-to-nvvm pipeline's own options (chip, opt-level, format, ...),
/// parsed from the command line's `--<name>=<value>` arguments that are not
/// dwc-aot options (see takePipelineOptions).
dwc::DwcToNVVMPipelineOptions &pipelineOptions() {
  static dwc::DwcToNVVMPipelineOptions options;
  return options;
}

/// One argument of an entry point: a dense row-major buffer.
struct BufferArg {
  std::string name; // in0, out0, arg0
  bool isOutput;
  bool isConst;
  std::string typeStr; // the MLIR type as written
  std::string elemStr; // f32, f16, ...
  std::vector<int64_t> shape;
  unsigned elemBits;
};

struct EntrySig {
  std::string name;
  std::vector<BufferArg> args; // inputs then outputs
};

std::string typeToString(Type t) {
  std::string s;
  llvm::raw_string_ostream os(s);
  t.print(os);
  return s;
}

/// The identity layout, or a strided one spelling out the same row-major
/// strides with offset 0 (what the entry point's descriptors hold).
bool isDenseRowMajor(MemRefType type) {
  if (type.getLayout().isIdentity())
    return true;
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(type.getStridesAndOffset(strides, offset)) || offset != 0)
    return false;
  int64_t expected = 1;
  for (int64_t i = type.getRank() - 1; i >= 0; --i) {
    if (type.getDimSize(i) != 1 && strides[i] != expected)
      return false;
    expected *= type.getDimSize(i);
  }
  return true;
}

LogicalResult makeBufferArg(func::FuncOp fn, Type t, const std::string &name,
                            bool isOutput, bool isConst, BufferArg &out) {
  auto shaped = dyn_cast<ShapedType>(t);
  if (!shaped || !isa<RankedTensorType, MemRefType>(t))
    return fn.emitError() << "dwc-aot: argument/result " << name
                          << " has unsupported type " << t
                          << " (expected a ranked tensor or memref)";
  if (!shaped.hasStaticShape())
    return fn.emitError() << "dwc-aot: " << name << " of type " << t
                          << " has a dynamic shape (entry points need static "
                             "shapes)";
  if (auto mr = dyn_cast<MemRefType>(t); mr && !isDenseRowMajor(mr))
    return fn.emitError() << "dwc-aot: " << name << " of type " << t
                          << " is not a dense row-major memref (the entry "
                             "point passes row-major strides and offset 0)";
  Type elem = shaped.getElementType();
  if (!elem.isIntOrFloat())
    return fn.emitError() << "dwc-aot: " << name << " has element type " << elem
                          << " (expected an integer or float)";
  out.name = name;
  out.isOutput = isOutput;
  out.isConst = isConst;
  out.typeStr = typeToString(t);
  out.elemStr = typeToString(elem);
  out.shape.assign(shaped.getShape().begin(), shaped.getShape().end());
  out.elemBits = elem.getIntOrFloatBitWidth();
  return success();
}

/// The entry point `dwc_<name>` and the header need C identifiers.
bool isCIdentifier(StringRef name) {
  return !name.empty() && (llvm::isAlpha(name[0]) || name[0] == '_') &&
         llvm::all_of(name, [](char c) { return llvm::isAlnum(c) || c == '_'; });
}

/// The entry point without the driver's pointer query (addTrustedEntryPoint).
std::string trustedEntryName(StringRef name) {
  return "dwc_" + name.str() + "_trusted";
}

/// Checks that `fn` can be given the entry points dwc_<name> and
/// dwc_<name>_trusted: a C identifier that no other symbol of the module
/// already uses, and no function's entry point is another's trusted one.
LogicalResult checkEntryName(ModuleOp module, func::FuncOp fn) {
  StringRef name = fn.getName();
  if (!isCIdentifier(name))
    return fn.emitError() << "dwc-aot: function name '" << name
                          << "' is not a C identifier ([A-Za-z_][A-Za-z0-9_]*)"
                             "; its entry point dwc_"
                          << name << " could not be declared in C";
  for (std::string entry : {"dwc_" + name.str(), trustedEntryName(name)})
    if (SymbolTable::lookupSymbolIn(module, entry))
      return fn.emitError() << "dwc-aot: entry point " << entry << " of @"
                            << name << " clashes with the symbol @" << entry
                            << " of the module (rename one of them)";
  if (name.ends_with("_trusted")) {
    StringRef base = name.drop_back(strlen("_trusted"));
    auto other = module.lookupSymbol<func::FuncOp>(base);
    if (other && !other.isDeclaration() && other.isPublic())
      return fn.emitError() << "dwc-aot: entry point dwc_" << name << " of @"
                            << name << " is also the trusted entry point of @"
                            << base << " (rename one of them)";
  }
  return success();
}

/// Records the C signature of each public function before lowering. Tensor
/// arguments are inputs, tensor/memref results become trailing outputs;
/// memref arguments (already bufferized code) are read-write buffers.
LogicalResult collectSignatures(ModuleOp module, std::vector<EntrySig> &sigs) {
  // (Checked here for both pipelines: the upstream one does not check.)
  if (failed(dwc::checkReservedSymbols(module)))
    return failure();
  for (auto fn : module.getOps<func::FuncOp>()) {
    if (fn.isDeclaration() || !fn.isPublic())
      continue;
    if (failed(checkEntryName(module, fn)))
      return failure();
    EntrySig sig;
    sig.name = fn.getName().str();
    FunctionType ft = fn.getFunctionType();
    unsigned nIn = 0, nOut = 0, nArg = 0;
    for (Type t : ft.getInputs()) {
      BufferArg a;
      bool isTensor = isa<RankedTensorType>(t);
      std::string name = isTensor ? "in" + std::to_string(nIn++)
                                  : "arg" + std::to_string(nArg++);
      if (failed(makeBufferArg(fn, t, name, /*isOutput=*/!isTensor,
                               /*isConst=*/isTensor, a)))
        return failure();
      sig.args.push_back(a);
    }
    for (Type t : ft.getResults()) {
      BufferArg a;
      if (failed(makeBufferArg(fn, t, "out" + std::to_string(nOut++),
                               /*isOutput=*/true, /*isConst=*/false, a)))
        return failure();
      sig.args.push_back(a);
    }
    // Every public host function gets a C interface wrapper.
    fn->setAttr(LLVM::LLVMDialect::getEmitCWrapperAttrName(),
                UnitAttr::get(module.getContext()));
    sigs.push_back(std::move(sig));
  }
  if (sigs.empty())
    return module.emitError("dwc-aot: no public function to compile");
  return success();
}

LogicalResult runPipeline(ModuleOp module) {
  const dwc::DwcToNVVMPipelineOptions &opts = pipelineOptions();
  auto emitError = [&](const Twine &msg) {
    return module.emitError("dwc-aot: ") << msg;
  };
  PassManager pm(module.getContext());
  if (pipelineKind == "dwc") {
    if (failed(dwc::buildDwcToNVVMPipeline(pm, opts, emitError)))
      return failure();
  } else if (pipelineKind == "upstream") {
    FailureOr<dwc::TargetDescription> target =
        dwc::resolveTarget(opts.chip, opts.features, opts.smCount, emitError);
    if (failed(target))
      return failure();
    std::string p = "gpu-kernel-outlining, gpu-lower-to-nvvm-pipeline{"
                    "cubin-chip=" +
                    target->chip + " cubin-features=" + target->features +
                    " cubin-format=" + opts.format.getValue() +
                    " opt-level=" + std::to_string(opts.optLevel) + "}";
    if (failed(parsePassPipeline(p, pm)))
      return module.emitError("dwc-aot: bad upstream pipeline: ") << p;
  } else {
    return module.emitError("dwc-aot: unknown --pipeline=") << pipelineKind;
  }
  return pm.run(module);
}

/// Checks the lowered C interface wrapper takes one descriptor pointer per
/// recorded buffer (inputs, then outputs).
LogicalResult checkLoweredAbi(ModuleOp module, const EntrySig &sig) {
  std::string ciface = "_mlir_ciface_" + sig.name;
  auto fn = module.lookupSymbol<LLVM::LLVMFuncOp>(ciface);
  if (!fn)
    return module.emitError("dwc-aot: the pipeline produced no ")
           << ciface << " (is the function public and lowered to LLVM?)";
  auto ty = fn.getFunctionType();
  if (!isa<LLVM::LLVMVoidType>(ty.getReturnType()) ||
      ty.getNumParams() != sig.args.size())
    return fn.emitError("dwc-aot: ")
           << ciface << " has type " << ty << ", expected " << sig.args.size()
           << " memref descriptor pointers (inputs, then outputs) and no "
              "result";
  return success();
}

/// The entry point `fn` of `sig`, from `b`'s insertion point on: builds the
/// memref descriptors of dense row-major buffers from its pointer arguments,
/// calls _mlir_ciface_<name> and returns the runtime's pending error.
void emitCallAndReturn(llvm::IRBuilder<> &b, llvm::Function *fn,
                       const EntrySig &sig, llvm::FunctionCallee take) {
  llvm::LLVMContext &ctx = fn->getContext();
  llvm::Type *i64 = llvm::Type::getInt64Ty(ctx);
  llvm::PointerType *ptr = llvm::PointerType::getUnqual(ctx);
  std::vector<llvm::Value *> descs;
  for (unsigned i = 0; i < sig.args.size(); ++i) {
    const BufferArg &a = sig.args[i];
    unsigned rank = a.shape.size();
    std::vector<llvm::Type *> fields = {ptr, ptr, i64};
    if (rank > 0) {
      auto *arr = llvm::ArrayType::get(i64, rank);
      fields.push_back(arr);
      fields.push_back(arr);
    }
    auto *descTy = llvm::StructType::get(ctx, fields);
    llvm::IRBuilder<> ab(&fn->getEntryBlock(), fn->getEntryBlock().begin());
    llvm::Value *d = ab.CreateAlloca(descTy, nullptr, a.name + ".desc");
    b.CreateStore(fn->getArg(i), b.CreateStructGEP(descTy, d, 0));
    b.CreateStore(fn->getArg(i), b.CreateStructGEP(descTy, d, 1));
    b.CreateStore(b.getInt64(0), b.CreateStructGEP(descTy, d, 2));
    int64_t stride = 1;
    for (int r = (int)rank - 1; r >= 0; --r) {
      b.CreateStore(
          b.getInt64(a.shape[r]),
          b.CreateInBoundsGEP(descTy, d,
                              {b.getInt32(0), b.getInt32(3), b.getInt32(r)}));
      b.CreateStore(
          b.getInt64(stride),
          b.CreateInBoundsGEP(descTy, d,
                              {b.getInt32(0), b.getInt32(4), b.getInt32(r)}));
      stride *= a.shape[r];
    }
    descs.push_back(d);
  }
  b.CreateCall(fn->getParent()->getFunction("_mlir_ciface_" + sig.name), descs);
  b.CreateRet(b.CreateCall(take));
}

/// Declares `i32 <name>(ptr...)` with one named pointer per buffer.
llvm::Function *declareEntry(llvm::Module &m, const EntrySig &sig,
                             const std::string &name) {
  llvm::LLVMContext &ctx = m.getContext();
  std::vector<llvm::Type *> params(sig.args.size(),
                                   llvm::PointerType::getUnqual(ctx));
  auto *fty = llvm::FunctionType::get(llvm::Type::getInt32Ty(ctx), params, false);
  auto *fn = llvm::Function::Create(fty, llvm::GlobalValue::ExternalLinkage,
                                    name, m);
  fn->setVisibility(llvm::GlobalValue::DefaultVisibility);
  fn->addFnAttr(llvm::Attribute::NoUnwind);
  for (unsigned i = 0; i < sig.args.size(); ++i)
    fn->getArg(i)->setName(sig.args[i].name);
  return fn;
}

/// Adds `i32 dwc_<name>(ptr...)`: checks every pointer (null, alignment, and
/// through the driver that it is device memory), then calls the function.
llvm::Function *addEntryPoint(llvm::Module &m, const EntrySig &sig) {
  llvm::LLVMContext &ctx = m.getContext();
  llvm::Type *i32 = llvm::Type::getInt32Ty(ctx);
  llvm::Type *i64 = llvm::Type::getInt64Ty(ctx);
  llvm::PointerType *ptr = llvm::PointerType::getUnqual(ctx);

  llvm::FunctionCallee take = m.getOrInsertFunction(
      "dwcTakeLastError", llvm::FunctionType::get(i32, {}, false));
  llvm::FunctionCallee checkPtr = m.getOrInsertFunction(
      "dwcCheckPointerNamed",
      llvm::FunctionType::get(i32, {ptr, i64, ptr}, false));
  llvm::Function *fn = declareEntry(m, sig, "dwc_" + sig.name);

  llvm::BasicBlock *entry = llvm::BasicBlock::Create(ctx, "entry", fn);
  llvm::BasicBlock *fail = llvm::BasicBlock::Create(ctx, "bad_arg", fn);
  llvm::IRBuilder<> b(entry);
  b.CreateCall(take); // a call reports its own errors only
  llvm::IRBuilder<> fb(fail);
  llvm::PHINode *failStatus = fb.CreatePHI(i32, sig.args.size());
  fb.CreateCall(take);
  fb.CreateRet(failStatus);

  for (unsigned i = 0; i < sig.args.size(); ++i) {
    llvm::Value *name = b.CreateGlobalString(
        sig.args[i].name + " of dwc_" + sig.name, "dwc.argname");
    llvm::Value *st =
        b.CreateCall(checkPtr, {fn->getArg(i), b.getInt64(alignment), name});
    llvm::BasicBlock *next = llvm::BasicBlock::Create(ctx, "ok", fn, fail);
    b.CreateCondBr(b.CreateICmpNE(st, b.getInt32(0)), fail, next);
    failStatus->addIncoming(st, b.GetInsertBlock());
    b.SetInsertPoint(next);
  }
  emitCallAndReturn(b, fn, sig, take);
  return fn;
}

/// Adds `i32 dwc_<name>_trusted(ptr...)` for callers that have validated
/// their buffers as device memory of the current context themselves (e.g.
/// dwc_torch with CUDA tensors): null and alignment are checked with integer
/// arithmetic, without the driver's per-pointer query; a pointer failing
/// them is handed to the checked entry `checked`, which reports it.
void addTrustedEntryPoint(llvm::Module &m, const EntrySig &sig,
                          llvm::Function *checked) {
  llvm::LLVMContext &ctx = m.getContext();
  llvm::Type *i32 = llvm::Type::getInt32Ty(ctx);
  llvm::Type *i64 = llvm::Type::getInt64Ty(ctx);
  llvm::FunctionCallee take = m.getOrInsertFunction(
      "dwcTakeLastError", llvm::FunctionType::get(i32, {}, false));
  llvm::Function *fn = declareEntry(m, sig, trustedEntryName(sig.name));

  llvm::BasicBlock *entry = llvm::BasicBlock::Create(ctx, "entry", fn);
  llvm::BasicBlock *bad = llvm::BasicBlock::Create(ctx, "bad_arg", fn);
  llvm::BasicBlock *body = llvm::BasicBlock::Create(ctx, "call", fn);
  llvm::IRBuilder<> b(entry);
  llvm::Value *anyBad = b.getFalse();
  for (llvm::Argument &arg : fn->args()) {
    llvm::Value *addr = b.CreatePtrToInt(&arg, i64);
    llvm::Value *isNull = b.CreateICmpEQ(addr, b.getInt64(0));
    llvm::Value *misaligned = b.CreateICmpNE(
        b.CreateAnd(addr, b.getInt64(alignment - 1)), b.getInt64(0));
    anyBad = b.CreateOr(anyBad, b.CreateOr(isNull, misaligned));
  }
  b.CreateCondBr(anyBad, bad, body);
  llvm::IRBuilder<> badB(bad);
  std::vector<llvm::Value *> args;
  for (llvm::Argument &arg : fn->args())
    args.push_back(&arg);
  badB.CreateRet(badB.CreateCall(checked, args));
  llvm::IRBuilder<> bb(body);
  bb.CreateCall(take); // a call reports its own errors only
  emitCallAndReturn(bb, fn, sig, take);
}

std::string shapeStr(const BufferArg &a) {
  std::string s;
  for (size_t i = 0; i < a.shape.size(); ++i)
    s += (i ? "x" : "") + std::to_string(a.shape[i]);
  return a.shape.empty() ? "scalar" : s;
}

const char *roleOf(const BufferArg &a) {
  return a.isConst ? "[in]" : a.name[0] == 'o' ? "[out]" : "[inout]";
}

std::string writeHeader(const std::vector<EntrySig> &sigs,
                        StringRef headerPath) {
  std::string guard = "DWC_AOT_";
  for (char c : llvm::sys::path::filename(headerPath))
    guard += std::isalnum((unsigned char)c) ? (char)std::toupper(c) : '_';
  std::string h;
  llvm::raw_string_ostream os(h);
  os << "/* Generated by dwc-aot from " << llvm::sys::path::filename(inputFile)
     << " (chip " << pipelineOptions().chip.getValue() << "): C entry points of the compiled dwc\n"
     << " * functions. Link the object with libdwc_runtime. Every pointer is a"
     << "\n * CUDA device pointer to a dense row-major buffer, " << alignment
     << "-byte aligned.\n"
     << " * Each call returns DWC_SUCCESS or an error status; the message is "
     << "in\n * dwcGetLastErrorMessage(). By default a call synchronises; "
     << "after\n * dwcSetStream(s) it is queued on stream s. */\n";
  os << "#ifndef " << guard << "\n#define " << guard << "\n\n";
  os << "#include \"dwc/runtime.h\"\n\n";
  os << "#ifdef __cplusplus\nextern \"C\" {\n#endif\n\n";
  for (const EntrySig &sig : sigs) {
    os << "/* dwc_" << sig.name << ":\n";
    size_t nameW = 0, roleW = 0;
    for (const BufferArg &a : sig.args) {
      nameW = std::max(nameW, a.name.size());
      roleW = std::max(roleW, std::string(roleOf(a)).size());
    }
    for (const BufferArg &a : sig.args) {
      int64_t n = 1;
      for (int64_t d : a.shape)
        n *= d;
      std::string role = roleOf(a);
      os << " *   " << a.name << std::string(nameW - a.name.size() + 2, ' ')
         << role << std::string(roleW - role.size() + 2, ' ') << a.elemStr
         << "  " << shapeStr(a) << "  (" << a.typeStr << ", "
         << n * ((a.elemBits + 7) / 8) << " bytes)\n";
    }
    os << " */\n";
    std::string params;
    for (size_t i = 0; i < sig.args.size(); ++i) {
      const BufferArg &a = sig.args[i];
      params += std::string(i ? ", " : "") +
                (a.isConst ? "const void *" : "void *") + a.name;
    }
    if (sig.args.empty())
      params = "void";
    os << "dwc_status dwc_" << sig.name << "(" << params << ");\n";
    os << "/* The same without asking the driver whether each pointer is "
          "device memory\n * (null and alignment are still checked): for "
          "callers that know. */\n";
    os << "dwc_status " << trustedEntryName(sig.name) << "(" << params
       << ");\n\n";
  }
  os << "#ifdef __cplusplus\n} /* extern \"C\" */\n#endif\n\n#endif /* "
     << guard << " */\n";
  return h;
}

int fail(const llvm::Twine &msg) {
  llvm::errs() << "dwc-aot: " << msg << "\n";
  return 1;
}

/// Checks the options the pipeline does not check itself.
LogicalResult checkToolOptions() {
  auto error = [](const Twine &msg) {
    fail(msg);
    return failure();
  };
  StringRef gpuFormat = pipelineOptions().format;
  int optLevel = pipelineOptions().optLevel;
  if (gpuFormat != "fatbin" && gpuFormat != "bin")
    return error("--format=" + gpuFormat +
                 " is not an embeddable GPU binary: use fatbin or bin");
  // The kernels read and write 128 bits at a time.
  if (alignment < 16 || alignment > 4096 || !llvm::isPowerOf2_32(alignment))
    return error("--alignment=" + Twine(alignment) +
                 " must be a power of two in [16, 4096] (the kernels access "
                 "memory 128 bits at a time)");
  if (optLevel < 0 || optLevel > 3)
    return error("--opt-level=" + Twine(optLevel) + " is not in [0, 3]");
  return success();
}

/// The host target machine for -o, or null after an error message.
std::unique_ptr<llvm::TargetMachine> createHostTargetMachine() {
  std::string err;
  llvm::Triple triple(targetTriple.empty() ? llvm::sys::getDefaultTargetTriple()
                                           : targetTriple);
  const llvm::Target *target = llvm::TargetRegistry::lookupTarget(triple, err);
  if (!target) {
    fail("no host target for '" + triple.str() + "': " + err);
    return nullptr;
  }
  std::unique_ptr<llvm::MCSubtargetInfo> subtarget(
      target->createMCSubtargetInfo(triple, "", ""));
  if (!subtarget || !subtarget->isCPUStringValid(targetCpu)) {
    fail("--target-cpu=" + targetCpu + " is not a CPU of " + triple.str());
    return nullptr;
  }
  llvm::TargetOptions targetOptions;
  std::unique_ptr<llvm::TargetMachine> tm(target->createTargetMachine(
      triple, targetCpu, "", targetOptions, llvm::Reloc::PIC_, std::nullopt,
      pipelineOptions().optLevel >= 2 ? llvm::CodeGenOptLevel::Default
                    : llvm::CodeGenOptLevel::None));
  if (!tm) {
    fail("cannot create a target machine for " + triple.str());
    return nullptr;
  }
  return tm;
}

/// Whether `name` (without dashes) is one of dwc-aot's own options or a
/// generic one (--help, --version): those stay with llvm::cl.
bool isToolOption(StringRef name) {
  auto &registered = cl::getRegisteredOptions();
  auto it = registered.find(name);
  if (it == registered.end())
    return false;
  return llvm::any_of(it->second->Categories, [](cl::OptionCategory *c) {
    return c == &aotCategory || c == &cl::getGeneralCategory();
  });
}

/// Whether `option` ("name=value") parses as a dwc-to-nvvm pipeline option;
/// else `unknown` tells an option the pipeline does not have from a bad
/// value (whose message llvm::cl has printed).
bool parsesAsPipelineOption(StringRef option, bool &unknown) {
  std::string why;
  llvm::raw_string_ostream os(why);
  dwc::DwcToNVVMPipelineOptions probe;
  unknown = false;
  if (succeeded(probe.parseFromString(option, os)))
    return true;
  unknown = StringRef(why).contains("no such option");
  return false;
}

/// Moves every `--<name>=<value>` (or `--<name> <value>`) argument that is
/// not a dwc-aot option but a dwc-to-nvvm pipeline option into
/// pipelineOptions() (parsed by the pipeline's own parser: one definition of
/// the options, no copies), and removes it from argv. Fails with a message
/// on a bad value.
LogicalResult takePipelineOptions(int &argc, char **argv) {
  std::string pipeline;
  int kept = 1;
  for (int i = 1; i < argc; ++i) {
    StringRef arg = argv[i];
    StringRef name = arg.ltrim('-').split('=').first;
    if (!arg.starts_with("-") || arg == "-" || name.empty() ||
        isToolOption(name)) {
      argv[kept++] = argv[i];
      continue;
    }
    bool separate = !arg.contains('=') && i + 1 < argc;
    std::string option = arg.ltrim('-').str();
    if (separate)
      option += "=" + std::string(argv[i + 1]);
    bool unknown;
    if (!parsesAsPipelineOption(option, unknown)) {
      if (unknown) {
        argv[kept++] = argv[i]; // not a pipeline option: llvm::cl reports it
        continue;
      }
      fail("bad value of a dwc-to-nvvm pipeline option: " + arg +
           (separate ? " " + StringRef(argv[i + 1]) : StringRef()) +
           (arg.contains('=') || separate ? "" : " (no value given)"));
      return failure();
    }
    pipeline += " " + option;
    i += separate;
  }
  argc = kept;
  argv[argc] = nullptr;
  return pipelineOptions().parseFromString(pipeline);
}

/// Parses the command line; fails after printing why.
LogicalResult parseCommandLine(int argc, char **argv) {
  cl::HideUnrelatedOptions(aotCategory);
  if (failed(takePipelineOptions(argc, argv)))
    return failure();
  cl::ParseCommandLineOptions(
      argc, argv,
      "dwc ahead-of-time compiler: .mlir -> x86-64 object + C header\n\n"
      "  The options of the dwc-to-nvvm GPU pipeline are given as\n"
      "  --<name>=<value> (e.g. --chip=sm_90a --opt-level=2); "
      "--help-pipeline lists them.\n");
  if (helpPipeline) {
    llvm::outs() << "dwc-to-nvvm pipeline options (--<name>=<value>):\n";
    pipelineOptions().printHelp(2, pipelineOptions().getOptionWidth() + 2);
    exit(0);
  }
  return checkToolOptions();
}

/// The MLIR context with every dialect, extension and translation the
/// pipeline needs.
std::unique_ptr<MLIRContext> createContext() {
  DialectRegistry registry;
  registry.insert<dwc::DwcDialect>();
  dwc::registerBufferizableOpInterfaceExternalModels(registry);
  registerAllDialects(registry);
  registerAllExtensions(registry);
  NVVM::registerNVVMTargetInterfaceExternalModels(registry);
  registerAllToLLVMIRTranslations(registry);
  auto context = std::make_unique<MLIRContext>(registry);
  context->printOpOnDiagnostic(false);
  context->loadAllAvailableDialects();
  return context;
}

/// Writes `text` to `path`; fails after printing why.
LogicalResult writeFile(StringRef path,
                        function_ref<void(raw_ostream &)> text) {
  std::string err;
  auto out = openOutputFile(path, &err);
  if (!out) {
    fail(err);
    return failure();
  }
  text(out->os());
  out->keep();
  return success();
}

/// The host module's LLVM IR with one C entry point per function; only the
/// entry points are exported.
std::unique_ptr<llvm::Module> translateToHostIR(ModuleOp module,
                                                const std::vector<EntrySig> &sigs,
                                                llvm::LLVMContext &ctx) {
  std::unique_ptr<llvm::Module> m =
      translateModuleToLLVMIR(module, ctx, "dwc_aot");
  if (!m) {
    fail("translation to LLVM IR failed");
    return nullptr;
  }
  for (const EntrySig &sig : sigs)
    addTrustedEntryPoint(*m, sig, addEntryPoint(*m, sig));
  // MLIR's host functions become internal so that several dwc-aot objects
  // link into one library.
  if (!keepMlirSymbols) {
    for (llvm::Function &f : *m)
      if (!f.isDeclaration() && !f.getName().starts_with("dwc_"))
        f.setLinkage(llvm::GlobalValue::InternalLinkage);
    for (llvm::GlobalVariable &g : m->globals())
      if (!g.isDeclaration() && !g.hasAppendingLinkage() &&
          !g.getName().starts_with("llvm."))
        g.setLinkage(llvm::GlobalValue::InternalLinkage);
  }
  return m;
}

/// LLVM's default module pipeline at the requested level (none at 0).
void optimizeHostIR(llvm::Module &m, llvm::TargetMachine &tm, int optLevel) {
  if (optLevel <= 0)
    return;
  llvm::LoopAnalysisManager lam;
  llvm::FunctionAnalysisManager fam;
  llvm::CGSCCAnalysisManager cgam;
  llvm::ModuleAnalysisManager mam;
  llvm::PassBuilder pb(&tm);
  pb.registerModuleAnalyses(mam);
  pb.registerCGSCCAnalyses(cgam);
  pb.registerFunctionAnalyses(fam);
  pb.registerLoopAnalyses(lam);
  pb.crossRegisterProxies(lam, fam, cgam, mam);
  llvm::OptimizationLevel level = optLevel == 1   ? llvm::OptimizationLevel::O1
                                  : optLevel == 2 ? llvm::OptimizationLevel::O2
                                                  : llvm::OptimizationLevel::O3;
  llvm::ModulePassManager mpm = pb.buildPerModuleDefaultPipeline(level);
  mpm.run(m, mam);
}

/// Writes the host object (or LLVM IR with --emit=llvm) of the lowered
/// module.
int emitHost(ModuleOp module, const std::vector<EntrySig> &sigs) {
  llvm::LLVMContext llvmContext;
  std::unique_ptr<llvm::Module> llvmModule =
      translateToHostIR(module, sigs, llvmContext);
  std::unique_ptr<llvm::TargetMachine> tm =
      llvmModule ? createHostTargetMachine() : nullptr;
  if (!tm)
    return 1;
  llvmModule->setTargetTriple(tm->getTargetTriple());
  llvmModule->setDataLayout(tm->createDataLayout());
  if (llvm::verifyModule(*llvmModule, &llvm::errs()))
    return fail("generated LLVM IR does not verify");
  optimizeHostIR(*llvmModule, *tm, pipelineOptions().optLevel);
  if (emitKind == EmitKind::LLVM)
    return failed(writeFile(outputFile, [&](raw_ostream &os) {
             llvmModule->print(os, nullptr);
           }));
  std::string err;
  auto out = openOutputFile(outputFile, &err);
  if (!out)
    return fail(err);
  llvm::legacy::PassManager codegen;
  if (tm->addPassesToEmitFile(codegen, out->os(), nullptr,
                              llvm::CodeGenFileType::ObjectFile))
    return fail("the host target cannot emit object files");
  codegen.run(*llvmModule);
  out->keep();
  return 0;
}

} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM y(argc, argv);
  mlir::registerAllPasses();
  if (failed(parseCommandLine(argc, argv)))
    return 1;
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  // The host target is checked before the (long) GPU compilation.
  if (emitKind == EmitKind::Obj && !createHostTargetMachine())
    return 1;

  std::unique_ptr<MLIRContext> context = createContext();
  std::string err;
  auto input = openInputFile(inputFile, &err);
  if (!input)
    return fail(err);
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(std::move(input), llvm::SMLoc());
  SourceMgrDiagnosticHandler diagHandler(sourceMgr, context.get());
  // Any error diagnostic fails the run, also one that a pass reports
  // without failing: no output after an error message.
  bool sawError = false;
  context->getDiagEngine().registerHandler([&](Diagnostic &d) {
    sawError |= d.getSeverity() == DiagnosticSeverity::Error;
    return failure(); // printed by the source manager's handler
  });
  OwningOpRef<ModuleOp> module =
      parseSourceFile<ModuleOp>(sourceMgr, context.get());
  if (!module)
    return 1;

  std::vector<EntrySig> sigs;
  if (failed(collectSignatures(*module, sigs)))
    return 1;
  if (failed(runPipeline(*module)) || sawError)
    return fail("lowering pipeline failed");
  for (const EntrySig &sig : sigs)
    if (failed(checkLoweredAbi(*module, sig)))
      return 1;
  if (!headerFile.empty() &&
      failed(writeFile(headerFile, [&](raw_ostream &os) {
        os << writeHeader(sigs, headerFile);
      })))
    return 1;
  if (emitKind == EmitKind::MLIR)
    return failed(writeFile(outputFile,
                            [&](raw_ostream &os) { module->print(os); }));
  return emitHost(*module, sigs);
}
