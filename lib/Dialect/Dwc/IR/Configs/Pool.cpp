//===- Pool.cpp - the pooling and global-pooling kernels' configurations ---===//
//
// The KernelConfigAttrInterface methods of the pooling and global-pooling configurations
// and the rules of Configs/Pool.h.
//
//===----------------------------------------------------------------------===//

#include "dwc/Dialect/Dwc/IR/KernelConfigs.h"
#include "dwc/Dialect/Dwc/IR/DwcOps.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"
#include <limits>

using namespace mlir;
using namespace mlir::dwc;

namespace {
/// Most elements of one operand: the kernels' thread counts (at most one
/// per element) then stay far from overflowing.
constexpr int64_t kMaxElements = int64_t(1) << 46;

/// Why the operands are not static, positive, identity-layout rank-4 (the
/// filter rank 3, the bias rank 1) f32/f16/bf16 buffers or tensors of one
/// element type; or "".
std::string operandIneligibility(Operation *op, bool conv) {
  if (op->getNumOperands() == 0)
    return "no operands";
  Type elem;
  for (auto [i, v] : llvm::enumerate(op->getOperands())) {
    auto t = dyn_cast<ShapedType>(v.getType());
    int64_t rank = !conv ? 4 : i == 1 ? 3 : (i == 2 && op->getNumOperands() == 4) ? 1 : 4;
    if (!t || !t.hasRank() || t.getRank() != rank)
      return "operands of the wrong rank";
    if (!t.hasStaticShape() ||
        llvm::any_of(t.getShape(), [](int64_t d) { return d <= 0; }))
      return "empty or dynamic operand";
    int64_t n = 1;
    for (int64_t d : t.getShape())
      if (llvm::MulOverflow(n, d, n) || n > kMaxElements)
        return "operand of more than 2^46 elements";
    auto m = dyn_cast<MemRefType>(t);
    if (m && !m.getLayout().isIdentity())
      return "non-identity layout";
    if (!elem)
      elem = t.getElementType();
    if (t.getElementType() != elem)
      return "operands of different element types";
  }
  if (!elem.isF32() && !elem.isF16() && !elem.isBF16())
    return "element type is not f32, f16 or bf16";
  return "";
}

/// Why window, strides and padding are malformed, or "".
std::string windowIneligibility(ArrayRef<int64_t> window,
                                ArrayRef<int64_t> strides,
                                ArrayRef<int64_t> padding) {
  if (window.size() != 2 || strides.size() != 2 || padding.size() != 4)
    return "window, strides or padding of the wrong rank";
  if (llvm::any_of(window, [](int64_t v) { return v < 1; }) ||
      llvm::any_of(strides, [](int64_t v) { return v < 1; }))
    return "window or stride is not positive";
  if (llvm::any_of(padding, [](int64_t v) { return v < 0; }))
    return "negative padding";
  return "";
}

PoolShape makeShape(ArrayRef<int64_t> in, ArrayRef<int64_t> out,
                    ArrayRef<int64_t> k, ArrayRef<int64_t> s,
                    ArrayRef<int64_t> p, Type elem, bool isMax) {
  return PoolShape{in[0], in[1], in[2], in[3], out[1], out[2], k[0], k[1],
                   s[0],  s[1],  p[0],  p[1],  p[2],   p[3],   elem, isMax};
}

ArrayRef<int64_t> shapeOf(Value v) {
  return cast<ShapedType>(v.getType()).getShape();
}

bool isGlobalWindow(ArrayRef<int64_t> in, ArrayRef<int64_t> window,
                    ArrayRef<int64_t> padding) {
  return window.size() == 2 && window[0] == in[1] && window[1] == in[2] &&
         llvm::all_of(padding, [](int64_t v) { return v == 0; });
}

/// Why `threads` threads per block of `CT` channel vectors, `unroll`
/// positions per step and `S` blocks per image do not fit `op`, or "". The
/// reduction's tile is a power of two (its lanes of one vector meet in a
/// warp butterfly); the gradient has no cross-lane step, so any tile width
/// whose rows fill whole blocks (threads a multiple of it).
std::string globalPoolIneligibility(Operation *op, int64_t CT, int64_t threads,
                                    int64_t unroll, int64_t S, bool gradient) {
  std::string why;
  std::optional<GlobalPoolPlan> shape = globalPoolShapeOf(op, why);
  if (!shape)
    return why;
  if (CT && !gradient && (!llvm::isPowerOf2_64(CT) || CT > kGlobalPoolMaxTile))
    return "channel_tile = " + std::to_string(CT) +
           " is not a power of two in [1, 32]";
  if (CT && gradient && (CT < 1 || CT > kGlobalPoolMaxTile))
    return "channel_tile = " + std::to_string(CT) + " is not in [1, 32]";
  if (threads && (threads < 32 || threads > 1024 || threads % 32 != 0))
    return "threads = " + std::to_string(threads) +
           " is not a multiple of 32 in [32, 1024]";
  if (CT && threads && threads % CT != 0)
    return "threads = " + std::to_string(threads) +
           " is not a multiple of channel_tile = " + std::to_string(CT);
  why = rangeIneligibility("unroll", unroll, 1, 16);
  if (why.empty())
    why = rangeIneligibility("position_blocks", S, 1, 4096);
  if (why.empty() && CT && threads &&
      withGlobalPoolTiling(*shape, CT, threads, S ? S : 1).blocks() >
          std::numeric_limits<int32_t>::max())
    why = "grid too large";
  return why;
}

/// The forward row tile's input loads: rows x columns of the tile.
int64_t rowTileLoads(int64_t rows, int64_t columns, int64_t kh, int64_t kw,
                     int64_t sh, int64_t sw) {
  return ((rows - 1) * sh + kh) * ((columns - 1) * sw + kw);
}
} // namespace

//===----------------------------------------------------------------------===//
// Shared rules
//===----------------------------------------------------------------------===//

std::optional<PoolShape> dwc::poolShapeOf(Operation *op, std::string &why) {
  auto fwd = dyn_cast<Pool2DOp>(op);
  auto bwd = dyn_cast<Pool2DBackwardOp>(op);
  if (!fwd && !bwd) {
    why = "not a dwc.pool2d or dwc.pool2d_backward";
    return std::nullopt;
  }
  why = operandIneligibility(op, /*conv=*/false);
  if (why.empty())
    why = fwd ? windowIneligibility(fwd.getWindow(), fwd.getStrides(),
                                    fwd.getPadding())
              : windowIneligibility(bwd.getWindow(), bwd.getStrides(),
                                    bwd.getPadding());
  if (!why.empty())
    return std::nullopt;
  Type elem = cast<ShapedType>(op->getOperand(0).getType()).getElementType();
  if (fwd)
    return makeShape(shapeOf(fwd.getInput()), shapeOf(fwd.getInit()),
                     fwd.getWindow(), fwd.getStrides(), fwd.getPadding(), elem,
                     fwd.getKind() == PoolKind::Max);
  return makeShape(shapeOf(bwd.getInput()), shapeOf(bwd.getOutputGrad()),
                   bwd.getWindow(), bwd.getStrides(), bwd.getPadding(), elem,
                   bwd.getKind() == PoolKind::Max);
}

int64_t dwc::poolVectorWidth(Type elem, int64_t C, int64_t bits) {
  int64_t v = std::max<int64_t>(1, bits / elem.getIntOrFloatBitWidth());
  return C % v == 0 ? v : 1;
}

bool dwc::poolGridTooLarge(int64_t threads) {
  return llvm::divideCeil(threads, kPoolBlockSize) >
         std::numeric_limits<int32_t>::max();
}

std::pair<int64_t, int64_t> dwc::coveringWindows(int64_t pad, int64_t k,
                                                 int64_t stride,
                                                 int64_t positions) {
  int64_t first = llvm::divideCeilSigned(pad - k + 1, stride);
  int64_t count = 0;
  while ((first + count) * stride - pad <= positions - 1)
    ++count;
  return {first, count};
}

bool dwc::isGlobalAveragePool(Operation *op) {
  if (auto fwd = dyn_cast<Pool2DOp>(op))
    return fwd.getKind() == PoolKind::Avg && !fwd.getActivation() &&
           isGlobalWindow(shapeOf(fwd.getInput()), fwd.getWindow(),
                          fwd.getPadding());
  if (auto bwd = dyn_cast<Pool2DBackwardOp>(op))
    return bwd.getKind() == PoolKind::Avg &&
           isGlobalWindow(shapeOf(bwd.getInput()), bwd.getWindow(),
                          bwd.getPadding());
  return false;
}

std::optional<GlobalPoolPlan> dwc::globalPoolShapeOf(Operation *op,
                                                     std::string &why) {
  if (!isa<GlobalAvgPoolOp, Pool2DOp, Pool2DBackwardOp>(op)) {
    why = "not a global average pooling op";
    return std::nullopt;
  }
  why = operandIneligibility(op, /*conv=*/false);
  if (why.empty() && !isa<GlobalAvgPoolOp>(op) && !isGlobalAveragePool(op))
    why = "not a global average (window of the whole input, no padding, "
          "no activation)";
  if (!why.empty())
    return std::nullopt;
  // The reduction streams X, the gradient dX (the op's init).
  Value streamed = isa<Pool2DBackwardOp>(op) ? op->getOperands().back()
                                             : op->getOperand(0);
  auto t = cast<ShapedType>(streamed.getType());
  auto in = t.getShape();
  int64_t vw = 128 / t.getElementType().getIntOrFloatBitWidth();
  while (vw > 1 && in[3] % vw != 0)
    vw /= 2;
  return GlobalPoolPlan{in[0], in[1] * in[2], in[3], vw, in[3] / vw,
                        0,     0,             0,     0,  1};
}

GlobalPoolPlan dwc::withGlobalPoolTiling(GlobalPoolPlan p, int64_t CT,
                                         int64_t threads, int64_t S) {
  p.CT = CT;
  p.R = std::max<int64_t>(1, threads / CT);
  p.tiles = llvm::divideCeil(p.CV, CT);
  p.S = std::clamp<int64_t>(S, 1, llvm::divideCeil(p.P, p.R));
  p.K = llvm::divideCeil(p.P, p.rowStride());
  return p;
}

//===----------------------------------------------------------------------===//
// #dwc.global_pool, #dwc.global_pool_backward
//===----------------------------------------------------------------------===//

StringRef GlobalPoolKernelAttr::getFamily() const { return getMnemonic(); }
bool GlobalPoolKernelAttr::isComplete() const {
  return getChannelTile() && getThreads() && getUnroll();
}
std::string GlobalPoolKernelAttr::whyNotFor(Operation *op) const {
  if (isa<Pool2DBackwardOp>(op))
    return "a gradient (#dwc.global_pool_backward takes it)";
  return globalPoolIneligibility(op, getChannelTile(), getThreads(),
                                 getUnroll(), 0, /*gradient=*/false);
}

StringRef GlobalPoolBackwardKernelAttr::getFamily() const {
  return getMnemonic();
}
bool GlobalPoolBackwardKernelAttr::isComplete() const {
  return getChannelTile() && getThreads() && getUnroll() &&
         getPositionBlocks();
}
std::string GlobalPoolBackwardKernelAttr::whyNotFor(Operation *op) const {
  if (!isa<Pool2DBackwardOp>(op))
    return "not a dwc.pool2d_backward";
  return globalPoolIneligibility(op, getChannelTile(), getThreads(),
                                 getUnroll(), getPositionBlocks(),
                                 /*gradient=*/true);
}

//===----------------------------------------------------------------------===//
// #dwc.backward_bias
//===----------------------------------------------------------------------===//

namespace {
/// The vector width of `C` channels of `elem` (128 bits, halved until it
/// divides C).
int64_t channelVectorWidth(Type elem, int64_t C) {
  int64_t vw = 128 / elem.getIntOrFloatBitWidth();
  while (vw > 1 && C % vw != 0)
    vw /= 2;
  return vw;
}
} // namespace

std::optional<std::pair<int64_t, int64_t>>
dwc::backwardBiasShapeOf(Operation *op, std::string &why) {
  auto bias = dyn_cast<Conv2DBackwardBiasOp>(op);
  if (!bias) {
    why = "not a dwc.conv2d_backward_bias";
    return std::nullopt;
  }
  auto ranked = [](Value v, int64_t rank) {
    auto t = dyn_cast<ShapedType>(v.getType());
    return t && t.hasRank() && t.getRank() == rank;
  };
  why = !ranked(bias.getOutputGrad(), 4) || !ranked(bias.getInit(), 1)
            ? "operands of the wrong rank"
            : operandsIneligibility(op, Type(), kMaxElements);
  if (!why.empty())
    return std::nullopt;
  auto dy = cast<ShapedType>(bias.getOutputGrad().getType());
  auto db = cast<ShapedType>(bias.getInit().getType());
  Type elem = dy.getElementType(), dbElem = db.getElementType();
  if (!elem.isF32() && !elem.isF16() && !elem.isBF16())
    why = "element type is not f32, f16 or bf16";
  else if (dbElem != elem && !dbElem.isF32())
    why = "bias gradient of neither dY's element type nor f32";
  else if (db.getShape()[0] != dy.getShape()[3])
    why = "bias gradient and dY of different channel counts";
  if (!why.empty())
    return std::nullopt;
  auto g = dy.getShape();
  return std::make_pair(g[0] * g[1] * g[2], g[3]);
}

BackwardBiasPlan dwc::backwardBiasPlan(int64_t rows, int64_t C, Type elem,
                                       int64_t slices, int64_t CT,
                                       int64_t threads, int64_t totalThreads) {
  auto shape = [&](int64_t n, int64_t p, int64_t vw) {
    return GlobalPoolPlan{n, p, C, vw, C / vw, 0, 0, 0, 0, 1};
  };
  GlobalPoolPlan first = withGlobalPoolTiling(
      shape(slices, rows / slices, channelVectorWidth(elem, C)), CT, threads,
      1);
  // The ordered sum of the slices: f32 vectors, the widest power-of-two
  // tile up to one warp.
  Type f32 = Float32Type::get(elem.getContext());
  GlobalPoolPlan total = shape(1, slices, channelVectorWidth(f32, C));
  int64_t totalCT = std::min<int64_t>(kGlobalPoolMaxTile,
                                      llvm::PowerOf2Ceil(total.CV));
  return {first, withGlobalPoolTiling(total, totalCT, totalThreads, 1)};
}

StringRef BackwardBiasKernelAttr::getFamily() const { return getMnemonic(); }
bool BackwardBiasKernelAttr::isComplete() const {
  return getSlices() && getChannelTile() && getThreads() && getUnroll() &&
         getTotalThreads();
}
std::string BackwardBiasKernelAttr::whyNotFor(Operation *op) const {
  std::string why;
  auto shape = backwardBiasShapeOf(op, why);
  if (!shape)
    return why;
  auto [rows, C] = *shape;
  int64_t Z = getSlices(), CT = getChannelTile(), threads = getThreads();
  why = rangeIneligibility("slices", Z, 1, kBackwardBiasMaxSlices);
  if (why.empty() && Z && rows % Z != 0)
    why = "slices = " + std::to_string(Z) + " does not divide the " +
          std::to_string(rows) + " rows of dY";
  if (why.empty() && CT && (!llvm::isPowerOf2_64(CT) || CT > kGlobalPoolMaxTile))
    why = "channel_tile = " + std::to_string(CT) +
          " is not a power of two in [1, 32]";
  for (auto [name, t] : {std::pair<std::string, int64_t>{"threads", threads},
                         {"total_threads", getTotalThreads()}})
    if (why.empty() && t && (t < 32 || t > 1024 || t % 32 != 0))
      why = name + " = " + std::to_string(t) +
            " is not a multiple of 32 in [32, 1024]";
  // (A multiple of 32 threads holds whole tiles of a power of two <= 32.)
  if (why.empty())
    why = rangeIneligibility("unroll", getUnroll(), 1, 16);
  if (why.empty() && Z && CT && threads) {
    Type elem = cast<ShapedType>(op->getOperand(0).getType()).getElementType();
    if (backwardBiasPlan(rows, C, elem, Z, CT, threads, 32).slices.blocks() >
        std::numeric_limits<int32_t>::max())
      why = "grid too large";
  }
  return why;
}

//===----------------------------------------------------------------------===//
// #dwc.conv_pool
//===----------------------------------------------------------------------===//

std::string dwc::convPoolIneligibility(Operation *op, int64_t columns) {
  auto cp = dyn_cast<DepthwiseConv2DPool2DOp>(op);
  if (!cp)
    return "not a dwc.depthwise_conv2d_pool2d";
  std::string why = operandIneligibility(op, /*conv=*/true);
  if (why.empty() && (cp.getStrides().size() != 2 ||
                      cp.getDilations().size() != 2 ||
                      cp.getPadding().size() != 4))
    why = "convolution attributes of the wrong rank";
  if (why.empty())
    why = windowIneligibility(cp.getWindow(), cp.getPoolStrides(),
                              cp.getPoolPadding());
  if (!why.empty())
    return why;
  if (llvm::any_of(cp.getStrides(), [](int64_t s) { return s != 1; }) ||
      llvm::any_of(cp.getDilations(), [](int64_t d) { return d != 1; }))
    return "strided or dilated convolution";
  if (llvm::any_of(cp.getPadding(), [](int64_t p) { return p < 0; }))
    return "negative convolution padding";
  auto in = shapeOf(cp.getInput()), f = shapeOf(cp.getFilter());
  Type elem = cast<ShapedType>(cp.getInput().getType()).getElementType();
  bool narrow = elem.getIntOrFloatBitWidth() == 16;
  if (f[0] * f[1] > (narrow ? kConvPoolMaxTaps16 : kConvPoolMaxTaps))
    return narrow ? "16-bit filter larger than 9 taps"
                  : "filter larger than 49 taps";
  int64_t vw = poolVectorWidth(elem, in[3]);
  if (vw == 1)
    return "channels not a multiple of the vector width";
  why = rangeIneligibility("columns", columns, 1, 8);
  if (!why.empty() || !columns)
    return why;
  auto k = cp.getWindow(), s = cp.getPoolStrides();
  if ((columns - 1) * s[1] + k[1] + f[1] - 1 > kPoolMaxColumns)
    return "window too wide for the register strip";
  auto out = shapeOf(cp.getInit());
  if (poolGridTooLarge(out[0] * out[1] * llvm::divideCeil(out[2], columns) *
                       (in[3] / vw)))
    return "grid too large";
  return "";
}

StringRef ConvPoolKernelAttr::getFamily() const { return getMnemonic(); }
bool ConvPoolKernelAttr::isComplete() const { return getColumns(); }
std::string ConvPoolKernelAttr::whyNotFor(Operation *op) const {
  return convPoolIneligibility(op, getColumns());
}

//===----------------------------------------------------------------------===//
// #dwc.pool_forward
//===----------------------------------------------------------------------===//

StringRef PoolForwardKernelAttr::getFamily() const { return getMnemonic(); }
bool PoolForwardKernelAttr::isComplete() const {
  return getVectorBits() && getRows() && getColumns();
}
std::string PoolForwardKernelAttr::whyNotFor(Operation *op) const {
  if (!isa<Pool2DOp>(op))
    return "not a dwc.pool2d";
  std::string why;
  std::optional<PoolShape> s = poolShapeOf(op, why);
  if (!s)
    return why;
  int64_t bits = getVectorBits(), rows = getRows(), columns = getColumns();
  if (bits && bits != 32 && bits != 64 && bits != 128)
    return "vector_bits = " + std::to_string(bits) + " is not 32, 64 or 128";
  int64_t vw = poolVectorWidth(s->elem, s->C, bits ? bits : 128);
  if (vw == 1)
    return "channels not a multiple of the vector width";
  why = rangeIneligibility("rows", rows, 1, 16);
  if (why.empty())
    why = rangeIneligibility("columns", columns, 1, 16);
  if (!why.empty())
    return why;
  if (columns && (columns - 1) * s->sw + s->KW > kPoolMaxColumns)
    return "window too wide for the register strip";
  if (rows > 1 && s->KH <= s->sh)
    return "row tiles need windows overlapping in height";
  if (rows > 1 && columns &&
      rowTileLoads(rows, columns, s->KH, s->KW, s->sh, s->sw) >
          kPoolMaxTileLoads)
    return "row tile of more than 128 input loads";
  if (rows && columns &&
      poolGridTooLarge(s->N * llvm::divideCeil(s->OH, rows) *
                       llvm::divideCeil(s->OW, columns) * (s->C / vw)))
    return "grid too large";
  return "";
}

//===----------------------------------------------------------------------===//
// #dwc.pool_backward
//===----------------------------------------------------------------------===//

namespace {
/// Why `argmax` does not suit a max (or avg) gradient of shape `s`, or "".
std::string argmaxIneligibility(const PoolShape &s, StringRef argmax,
                                int64_t argmaxColumns) {
  bool stored = argmax == "stored" || argmax == "packed";
  if (!argmax.empty() && argmax != "none" && argmax != "recompute" && !stored)
    return ("argmax = \"" + argmax +
            "\" is not none, recompute, stored or packed")
        .str();
  if (!s.isMax && !argmax.empty() && argmax != "none")
    return "an argmax for an average gradient";
  if (s.isMax && argmax == "none")
    return "a max gradient without an argmax";
  std::string why = rangeIneligibility("argmax_columns", argmaxColumns, 1, 8);
  if (!why.empty())
    return why;
  if (argmaxColumns && !argmax.empty() && !stored)
    return "argmax_columns without a stored argmax";
  if (argmax == "packed" && (s.elem.getIntOrFloatBitWidth() != 16 ||
                             poolVectorWidth(s.elem, s.C) % 2 != 0))
    return "packed argmax needs 16-bit data in 128-bit vectors";
  if (stored && s.KH * s.KW > 127)
    return "window of more than 127 taps (the stored argmax is an i8)";
  if (stored && argmaxColumns &&
      (std::min(argmaxColumns, s.OW) - 1) * s.sw + s.KW > kPoolMaxColumns)
    return "argmax strip too wide for the register strip";
  if (stored && argmaxColumns &&
      poolGridTooLarge(s.N * s.OH * llvm::divideCeil(s.OW, argmaxColumns) *
                       (s.C / poolVectorWidth(s.elem, s.C))))
    return "grid too large";
  return "";
}

/// Why a tile of `rows` x `columns` dX positions (rows > 1) does not suit
/// shape `s` with argmax `argmax`, or "".
std::string backwardTileIneligibility(const PoolShape &s, int64_t rows,
                                      int64_t columns, StringRef argmax) {
  if (poolVectorWidth(s.elem, s.C) == 1)
    return "row tiles need C a multiple of 128 bits";
  if (s.sh == 1 && s.sw == 1) {
    if (s.isMax)
      return "row tiles of a stride-1 max gradient";
    if (columns &&
        rowTileLoads(rows, columns, s.KH, s.KW, 1, 1) > kPoolMaxTileLoads)
      return "row tile of more than 128 dY loads";
    return "";
  }
  if (rows % s.sh != 0)
    return "rows not a multiple of the height stride";
  bool overlap = s.KH > s.sh || s.KW > s.sw;
  if (s.isMax && argmax == "recompute" && !overlap)
    return "tiles of a max gradient with non-overlapping windows recompute "
           "without them";
  int64_t nr = llvm::divideCeil(rows + s.KH - 1, s.sh) + 1;
  int64_t nw = columns ? llvm::divideCeil(columns + s.KW - 1, s.sw) + 1 : 0;
  if (nr * nw > kPoolMaxTileWindows || rows * columns > kPoolMaxTilePositions)
    return "tile of more than 32 windows or 16 positions";
  return "";
}

/// Threads of the backward kernel a complete configuration chooses.
int64_t backwardThreads(const PoolShape &s, int64_t rows, int64_t columns) {
  return s.N * llvm::divideCeil(s.IH, rows) *
         llvm::divideCeil(s.IW, columns) *
         (s.C / poolVectorWidth(s.elem, s.C));
}
} // namespace

StringRef PoolBackwardKernelAttr::getFamily() const { return getMnemonic(); }
bool PoolBackwardKernelAttr::isComplete() const {
  bool stored = getArgmax() == "stored" || getArgmax() == "packed";
  return getRows() && getColumns() && !getArgmax().empty() &&
         (!stored || getArgmaxColumns());
}
std::string PoolBackwardKernelAttr::whyNotFor(Operation *op) const {
  if (!isa<Pool2DBackwardOp>(op))
    return "not a dwc.pool2d_backward";
  std::string why;
  std::optional<PoolShape> s = poolShapeOf(op, why);
  if (!s)
    return why;
  int64_t rows = getRows(), columns = getColumns();
  why = argmaxIneligibility(*s, getArgmax(), getArgmaxColumns());
  if (why.empty())
    why = rangeIneligibility("rows", rows, 1, 16);
  if (why.empty())
    why = rangeIneligibility("columns", columns, 1, kPoolMaxColumns);
  if (!why.empty())
    return why;
  if (columns % s->sw != 0)
    return "columns not a multiple of the width stride";
  if (rows > 1)
    why = backwardTileIneligibility(*s, rows, columns, getArgmax());
  if (why.empty() && rows && columns &&
      poolGridTooLarge(backwardThreads(*s, rows, columns)))
    why = "grid too large";
  return why;
}
