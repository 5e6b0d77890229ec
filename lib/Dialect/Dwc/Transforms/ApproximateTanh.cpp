//===- ApproximateTanh.cpp - afn f32 tanh to tanh.approx.f32 ---------------===//
//
// See Passes.td.
//
//===----------------------------------------------------------------------===//

#include "dwc/Dialect/Dwc/Transforms/Passes.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::dwc {
#define GEN_PASS_DEF_DWCAPPROXIMATETANH
#include "dwc/Dialect/Dwc/Transforms/Passes.h.inc"
} // namespace mlir::dwc

using namespace mlir;

namespace {
/// An f32 scalar tanh that allows approximate functions becomes the one
/// MUFU instruction.
struct TanhToApprox : OpRewritePattern<math::TanhOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(math::TanhOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.getType().isF32() ||
        !bitEnumContainsAll(op.getFastmath(), arith::FastMathFlags::afn))
      return failure();
    rewriter.replaceOpWithNewOp<LLVM::InlineAsmOp>(
        op, op.getType(), ValueRange{op.getOperand()},
        "tanh.approx.f32 $0, $1;", "=f,f", /*has_side_effects=*/false,
        /*is_align_stack=*/false, LLVM::tailcallkind::TailCallKind::None,
        /*asm_dialect=*/LLVM::AsmDialectAttr(), /*operand_attrs=*/ArrayAttr());
    return success();
  }
};

struct DwcApproximateTanhPass
    : dwc::impl::DwcApproximateTanhBase<DwcApproximateTanhPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<TanhToApprox>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
