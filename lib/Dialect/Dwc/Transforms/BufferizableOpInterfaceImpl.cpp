//===- BufferizableOpInterfaceImpl.cpp - dwc ops under One-Shot Bufferize -===//
//
// Every dwc op is destination-passing: its inputs are read, its `outs`
// operand is written in place (not read) and the result is equivalent to it.
// Bufferizing rebuilds the op on memrefs, without a result.
//
//===----------------------------------------------------------------------===//

#include "dwc/Dialect/Dwc/Transforms/BufferizableOpInterfaceImpl.h"
#include "dwc/Dialect/Dwc/IR/DwcOps.h"
#include "mlir/Dialect/Bufferization/IR/BufferizableOpInterface.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/IR/DialectRegistry.h"

using namespace mlir;
using namespace mlir::bufferization;

namespace {
template <typename OpTy>
struct DwcOpBufferizationModel
    : public BufferizableOpInterface::ExternalModel<DwcOpBufferizationModel<OpTy>,
                                                    OpTy> {
  bool bufferizesToMemoryRead(Operation *op, OpOperand &operand,
                              const AnalysisState &) const {
    return !cast<DestinationStyleOpInterface>(op).isDpsInit(&operand);
  }

  bool bufferizesToMemoryWrite(Operation *op, OpOperand &operand,
                               const AnalysisState &) const {
    return cast<DestinationStyleOpInterface>(op).isDpsInit(&operand);
  }

  AliasingValueList getAliasingValues(Operation *op, OpOperand &operand,
                                      const AnalysisState &) const {
    if (cast<DestinationStyleOpInterface>(op).isDpsInit(&operand))
      return {{op->getResult(0), BufferRelation::Equivalent}};
    return {};
  }

  LogicalResult bufferize(Operation *op, RewriterBase &rewriter,
                          const BufferizationOptions &options,
                          BufferizationState &state) const {
    SmallVector<Value> buffers;
    for (OpOperand &operand : op->getOpOperands()) {
      FailureOr<Value> buffer =
          getBuffer(rewriter, operand.get(), options, state);
      if (failed(buffer))
        return failure();
      buffers.push_back(*buffer);
    }
    Value initBuffer =
        buffers[cast<DestinationStyleOpInterface>(op).getDpsInits()
                    .getBeginOperandIndex()];
    rewriter.setInsertionPoint(op);
    OperationState memrefForm(op->getLoc(), op->getName(), buffers,
                              TypeRange{});
    memrefForm.propertiesAttr = op->getPropertiesAsAttribute();
    for (NamedAttribute attr : op->getDiscardableAttrs())
      memrefForm.addAttribute(attr.getName(), attr.getValue());
    rewriter.create(memrefForm);
    replaceOpWithBufferizedValues(rewriter, op, initBuffer);
    return success();
  }
};

template <typename... OpTys>
void attachModels(MLIRContext *ctx) {
  (OpTys::template attachInterface<DwcOpBufferizationModel<OpTys>>(*ctx), ...);
}
} // namespace

void mlir::dwc::registerBufferizableOpInterfaceExternalModels(
    DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *ctx, dwc::DwcDialect *) {
    attachModels<DepthwiseConv2DOp, DepthwiseConv2DBackwardDataOp,
                 DepthwiseConv2DBackwardFilterOp, Conv2DBackwardBiasOp,
                 DepthwiseConv2DPool2DOp, Pool2DOp,
                 Pool2DBackwardOp, GlobalAvgPoolOp,
                 Im2winOp, Conv2DOp>(ctx);
  });
}
