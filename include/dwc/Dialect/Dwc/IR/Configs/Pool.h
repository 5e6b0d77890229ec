//===- Pool.h - rules of the pooling and global-pooling kernels -*- C++ -*-===//
//
// Which ops the pooling and global-pooling kernel configurations take: shared by their
// verifiers, dwc-select-kernels and the pass that emits them.
//
//===----------------------------------------------------------------------===//

#ifndef DWC_DIALECT_DWC_IR_CONFIGS_POOL_H
#define DWC_DIALECT_DWC_IR_CONFIGS_POOL_H

#include "mlir/IR/Operation.h"
#include <optional>
#include <string>

namespace mlir {
namespace dwc {

/// Threads per block of the windowed pooling kernels (1-D grid).
inline constexpr int64_t kPoolBlockSize = 256;
/// Most input columns a pooling strip loads per row (fully unrolled).
inline constexpr int64_t kPoolMaxColumns = 64;
/// Most input vectors a forward row tile loads (unrolled).
inline constexpr int64_t kPoolMaxTileLoads = 128;
/// Strided backward tiles: most covering windows and dX positions.
inline constexpr int64_t kPoolMaxTileWindows = 32;
inline constexpr int64_t kPoolMaxTilePositions = 16;
/// Most filter taps of the fused convolution + pooling kernel (f32, 16-bit).
inline constexpr int64_t kConvPoolMaxTaps = 49;
inline constexpr int64_t kConvPoolMaxTaps16 = 9;
/// Widest channel tile of the global-pooling kernels (one warp).
inline constexpr int64_t kGlobalPoolMaxTile = 32;

/// The shape of a windowed pooling op (pool2d, pool2d_backward, or the
/// pooling of depthwise_conv2d_pool2d on its convolution's output): an
/// N x IH x IW x C input pooled to OH x OW by KH x KW windows.
struct PoolShape {
  int64_t N, IH, IW, C, OH, OW, KH, KW, sh, sw, pt, pb, pl, pr;
  Type elem;
  bool isMax;
};

/// The shape of a pool2d or pool2d_backward op, or why its operands and
/// attributes are malformed or not what the pooling kernels read (static,
/// positive, identity-layout floating-point operands of one type).
std::optional<PoolShape> poolShapeOf(Operation *op, std::string &why);

/// Elements per thread of `bits`-bit channel vectors (at least one), or 1
/// when they do not divide C.
int64_t poolVectorWidth(Type elem, int64_t C, int64_t bits = 128);

/// Whether threads / kPoolBlockSize blocks exceed a 1-D grid.
bool poolGridTooLarge(int64_t threads);

/// Strided gather: the first covering window (relative to a stride-aligned
/// tile origin) and the number of covering windows of a tile of `positions`
/// dX positions along one dimension.
std::pair<int64_t, int64_t> coveringWindows(int64_t pad, int64_t k,
                                            int64_t stride, int64_t positions);

/// Why `op` cannot take the fused depthwise convolution + pooling kernel
/// with `columns` pooled outputs per thread (0: not chosen yet), or "".
std::string convPoolIneligibility(Operation *op, int64_t columns);

/// Whether a pool2d / pool2d_backward op averages over its whole input (no
/// padding, no activation): the global-pooling kernels' ops.
bool isGlobalAveragePool(Operation *op);

/// The launch of a global-pooling kernel over N images of P positions and
/// C channels: blocks of CT channel vectors (vw elements) x R position rows,
/// S blocks per image and tile; thread (r, cv) of block s visits positions
/// s * R + r + k * R * S, K of them.
struct GlobalPoolPlan {
  int64_t N, P, C, vw, CV, CT, R, K, tiles, S;
  int64_t threads() const { return CT * R; }
  int64_t blocks() const { return N * tiles * S; }
  int64_t rowStride() const { return R * S; }
};

/// The operand global pooling streams (X, or dX for the gradient) as
/// N x P x C, or why it cannot.
std::optional<GlobalPoolPlan> globalPoolShapeOf(Operation *op,
                                                std::string &why);

/// `shape` with CT, R = threads / CT, S and the derived K and tiles.
GlobalPoolPlan withGlobalPoolTiling(GlobalPoolPlan shape, int64_t CT,
                                    int64_t threads, int64_t S);

/// Most slices of a bias-gradient reduction.
inline constexpr int64_t kBackwardBiasMaxSlices = int64_t(1) << 20;

/// A bias-gradient reduction (#dwc.backward_bias): `slices` reduces the
/// slices x (M / slices) x C view of dY into a slices x C f32 workspace,
/// `total` its 1 x slices x C view into dB.
struct BackwardBiasPlan {
  GlobalPoolPlan slices, total;
};

/// The two launches of a bias gradient of `C` channels over `rows` =
/// N * OH * OW rows of `elem` in `slices` slices (a divisor of rows), the
/// first with channel tile `CT` and `threads` threads, the second with
/// `totalThreads`.
BackwardBiasPlan backwardBiasPlan(int64_t rows, int64_t C, Type elem,
                                  int64_t slices, int64_t CT,
                                  int64_t threads, int64_t totalThreads);

/// The rows (N * OH * OW) and channels of a conv2d_backward_bias op's dY,
/// or why its operands are not what the bias-gradient kernels read.
std::optional<std::pair<int64_t, int64_t>>
backwardBiasShapeOf(Operation *op, std::string &why);

} // namespace dwc
} // namespace mlir

#endif // DWC_DIALECT_DWC_IR_CONFIGS_POOL_H
