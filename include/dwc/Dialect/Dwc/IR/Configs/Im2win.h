//===- Im2win.h - rules of the dense conv2d im2win kernels -*- C++ -*-===//
//
// Which ops the dense conv2d im2win kernel configurations take: shared by their
// verifiers, dwc-select-kernels and the pass that emits them.
//
//===----------------------------------------------------------------------===//

#ifndef DWC_DIALECT_DWC_IR_CONFIGS_IM2WIN_H
#define DWC_DIALECT_DWC_IR_CONFIGS_IM2WIN_H

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Operation.h"
#include <optional>
#include <string>

namespace mlir {
namespace dwc {

/// Static shared memory a block may use without opting in (bytes).
inline constexpr int64_t kIm2winStaticSharedMemory = 49152;
/// K tile of the warpgroup kernel (128-byte rows of f16/bf16).
inline constexpr int64_t kIm2winWgmmaBK = 64;

/// The GEMM view of a dwc.conv2d: M = N*OH*OW output pixels, N = OC,
/// K = FH*FW*C.
struct Im2winShape {
  Type elem;
  int64_t N, IH, IW, C, FH, FW, OC, OH, OW;
  int64_t sh, sw, dh, dw;
  int64_t padTop, padBottom, padLeft, padRight;
  int64_t M() const { return N * OH * OW; }
  int64_t K() const { return FH * FW * C; }
  bool isF32() const { return elem.isF32(); }
};

/// The shape of `op` when it is a dwc.conv2d with operands of the right
/// ranks and attributes of the right sizes, else nullopt.
std::optional<Im2winShape> im2winShapeOf(Operation *op);

/// Why `op` (on tensors or buffers) cannot take any im2win kernel, or "":
/// f32/f16/bf16 operands of one element type, f32 accumulation, identity
/// layouts, static non-empty shapes, OC a multiple of 128 bits.
std::string im2winIneligibility(Operation *op);

/// The shape of a dwc.conv2d the im2win family takes, or none with the
/// reason in `why` (the family-wide rules of every im2win configuration).
std::optional<Im2winShape> im2winEligibleShape(Operation *op,
                                               std::string &why);

/// The CUDA-core / mma.sync kernels' block tile for `tileN` channels:
/// 256 x 64 or 128 x 128; their K tile (16 for f32, 32 for f16/bf16).
inline int64_t im2winTileM(int64_t tileN) { return tileN == 64 ? 256 : 128; }
inline int64_t im2winTileK(const Im2winShape &s) { return s.isF32() ? 16 : 32; }

/// Shared memory of one stage (the A and B tiles) of the CUDA-core /
/// mma.sync kernels.
int64_t im2winStageBytes(const Im2winShape &s, int64_t tileN);

/// The most stages the CUDA-core / mma.sync kernels keep with cp.async
/// (2 or 3, within the static shared memory).
int64_t im2winMaxStages(const Im2winShape &s, int64_t tileN);

/// The widest warpgroup tile OC needs: 64 when OC <= 64, 128 when OC <= 128,
/// else 256.
int64_t im2winWgmmaMaxN(int64_t OC);

/// Warp-specialised wgmma with staged stores: each multiplying warp's 16
/// output rows x (n + 8) f16 staging area, all warps (bytes).
inline int64_t im2winWarpStageBytes(int64_t warpgroups, int64_t n) {
  return 4 * warpgroups * 16 * (n + 8) * 2;
}

/// Shared memory of one wgmma stage (A: 64 * warpgroups rows, B: n
/// channels, K tiles of 64).
inline int64_t im2winWgmmaStageBytes(int64_t warpgroups, int64_t n) {
  return (64 * warpgroups + n) * kIm2winWgmmaBK * 2;
}

/// The wgmma kernel's shared memory: whether it is dynamic and how many
/// bytes the launch asks for (dynamic: the stages, 1 KB of alignment, the
/// mbarriers, the warp staging areas).
struct Im2winWgmmaSharedMemory {
  bool dynamic;
  int64_t bytes;
};
Im2winWgmmaSharedMemory im2winWgmmaSharedMemory(int64_t warpgroups, int64_t n,
                                                int64_t stages,
                                                bool specialize, bool tma,
                                                bool stagedStores);

/// Whether the input's im2col TMA can load A: C % 64 == 0 (a K tile is one
/// tap x 64 channels), unit strides and dilations, and window corners
/// (-padding, padding - (F - 1)) within the 8-bit signed range of the map.
bool im2winTmaIm2colFits(const Im2winShape &s);

/// A flag of a configuration: its value, `dflt` when it is not set.
inline bool im2winFlag(BoolAttr flag, bool dflt) {
  return flag ? flag.getValue() : dflt;
}

} // namespace dwc
} // namespace mlir

#endif // DWC_DIALECT_DWC_IR_CONFIGS_IM2WIN_H
