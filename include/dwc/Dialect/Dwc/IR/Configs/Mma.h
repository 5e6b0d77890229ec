//===- Mma.h - rules of the depthwise tensor-core ring/band kernels -*- C++ -*-===//
//
// Which ops the depthwise tensor-core ring/band kernel configurations
// (#dwc.mma_band, #dwc.mma_ring) take and the shared-memory layout they
// imply: shared by their verifiers, dwc-select-kernels and
// convert-dwc-to-gpu-mma, so that the three cannot disagree. The index math
// is mirrored by test/Conversion/DwcToGPUMma/Inputs/{band,packing}_model.py.
//
//===----------------------------------------------------------------------===//

#ifndef DWC_DIALECT_DWC_IR_CONFIGS_MMA_H
#define DWC_DIALECT_DWC_IR_CONFIGS_MMA_H

#include "mlir/IR/Operation.h"
#include <optional>
#include <string>

namespace mlir {
namespace dwc {

class MmaBandKernelAttr;
class MmaRingKernelAttr;

namespace mma {
inline constexpr int64_t kBN = 64;    // channels per block
inline constexpr int64_t kVec = 8;    // f16/bf16 per 16-byte chunk
inline constexpr int64_t kChunks = kBN / kVec;
inline constexpr int64_t kFrag = 9;   // filter taps per fragment
inline constexpr int64_t kTM = 8;     // outputs per GEMV (mma N)
inline constexpr int64_t kGemvs = 16; // GEMVs per mma (mma M)
inline constexpr int64_t kZ = 23;     // compressed fragment: 7 zeros, 9 taps, 7 zeros
/// Row-ring positions: 64 channels + 16 bytes (144 bytes, 9 bank groups).
inline constexpr int64_t kRingPitch = kBN + kVec;
/// Filter-pair positions: 64 pairs + 16 bytes (272 bytes).
inline constexpr int64_t kPairPitch = 2 * kBN + kVec;
/// Tiles over this take dynamic shared memory.
inline constexpr int64_t kStaticSmemBytes = 48 * 1024;
} // namespace mma

/// The sizes of a depthwise convolution in the forward form the kernels
/// compute (backward data: dY is the input, dX the output, the padding
/// transposed): x N x IH x IW x C, w FH x FW x C, y N x OH x OW x C.
struct MmaShape {
  int64_t N, IH, IW, C, FH, FW, OH, OW, pt, pl;
};

/// What a complete configuration decides (booleans of a partial one: false).
struct MmaChoice {
  bool band = false;     // #dwc.mma_band (else #dwc.mma_ring)
  bool ring = false;     // mma_ring: a stage is a whole filter row
  int64_t fragsPerStage = 1;
  int64_t rows = 1;      // mma_band: spatial tiles per warp
  int64_t warpChannels = 16;
  bool filterPairs = false, inputPairs = false, oneBarrier = false;
  bool unroll = false, copySplit = false;
  int64_t minBlocksPerSm = 0;
};
MmaChoice mmaChoiceOf(MmaBandKernelAttr config);
MmaChoice mmaChoiceOf(MmaRingKernelAttr config);

/// The layout of one kernel: tiles, ring slots, buffers, grid and shared
/// memory of `choice` on `shape`.
struct MmaPlan {
  MmaChoice c;
  int64_t G, R;          // groups of 8 outputs per tile row, tile rows
  int64_t T, RB;         // band rows, output rows of a block
  int64_t slots, zbufs;  // ring slots, filter buffers
  int64_t nfrag, fps, groups, S;  // fragments, per stage, stage groups, stages
  int64_t RS, RSg, P, ZS;         // row columns, slot pitch, positions, filter positions
  int64_t JR, JW, par, nband;     // input pairs; band slices
  int64_t tilesW, tilesH, gridX, gridY;
  int64_t wchunks, threads, nAcc;
  int64_t bytes;                  // shared memory per block
};
MmaPlan mmaPlanOf(const MmaShape &shape, const MmaChoice &choice);

/// Spatial tile: R rows x G groups of 8 outputs (R * G = 16 GEMVs), G = the
/// next power of two >= ceil(OW / 8) in [4, 16].
int64_t mmaGroupsPerRow(int64_t OW);
/// K = 16 slices of a filter row's band: ceil((FW + 7) / 16).
int64_t mmaBandSlices(int64_t FW);
/// Shared memory of the band ring with `slots` slots and `bufs` filter
/// buffers (filter rows or pairs; input columns or pairs).
int64_t mmaBandSmemBytes(int64_t FW, int64_t slots, int64_t G, bool pairs,
                         bool inputPairs, int64_t bufs = 2);
/// Shared memory of the fragment row ring (R + 1 slots, two buffers).
int64_t mmaRingSmemBytes(int64_t nfrag, int64_t R, int64_t G);
/// Shared memory of the per-fragment stages (fps fragments, two buffers).
int64_t mmaFragmentSmemBytes(int64_t fps, int64_t R, int64_t G);

/// Why `op` cannot take the depthwise tensor-core kernels at all (op kind,
/// ranks, f16/bf16 with f32 accumulation, stride and dilation 1,
/// C % 8 == 0, identity layouts, static non-empty shapes, sizes below 2^31,
/// a non-negative transposed padding), or "". Tensor and memref forms.
std::string mmaKernelIneligibility(Operation *op);
/// The forward-form shape of an op mmaKernelIneligibility accepts.
MmaShape mmaShapeOf(Operation *op);
/// Why the kernel of `choice` cannot run `op` (an op mmaKernelIneligibility
/// accepts): field ranges, grid limits, shared memory over `smemPerBlock`.
std::string mmaPlanIneligibility(Operation *op, const MmaChoice &choice,
                                 int64_t smemPerBlock);

} // namespace dwc
} // namespace mlir

#endif // DWC_DIALECT_DWC_IR_CONFIGS_MMA_H
