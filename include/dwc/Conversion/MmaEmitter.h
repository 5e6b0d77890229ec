//===- MmaEmitter.h - one m16n8k16 mma.sync in generated kernels -*- C++ -*-===//
//
// The tensor-core passes (depthwise and im2win) emit their matrix products
// through this: f16 as nvgpu.mma.sync, bf16 as nvvm.mma.sync directly (the
// nvgpu lowering does not deduce the bf16 PTX types).
//
//===----------------------------------------------------------------------===//

#ifndef DWC_CONVERSION_MMAEMITTER_H
#define DWC_CONVERSION_MMAEMITTER_H

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Builders.h"
#include <array>

namespace mlir {
namespace dwc {

/// The m16n8k16 lane layout (PTX ISA, "Matrix Fragments for mma.m16n8k16"):
/// lane = 4 g + q (g = groupID, q = threadID_in_group). The A registers
/// a0..a7 hold rows g (a0, a1, a4, a5) and g + 8 (a2, a3, a6, a7), the B
/// registers b0..b3 column g, both at K = 2q + kMmaK16LaneK[i] (i = 0..3:
/// a0/a1 and a4/a5 pairs; b0, b1, b2, b3); the accumulators c0, c1 / c2, c3
/// rows g / g + 8 at columns 2q, 2q + 1.
inline constexpr int64_t kMmaK16LaneK[4] = {0, 1, 8, 9};

/// One m16n8k16 mma.sync with f32 accumulators: `a` the lane's
/// vector<4x2xT> A fragment (a0..a7 in register order), `bm` its
/// vector<2x2xT> B fragment, `c` its vector<2x2xf32> accumulators
/// {c0, c1; c2, c3}; T = f16 or bf16. Returns the new accumulators.
inline Value emitMmaM16N8K16(OpBuilder &b, Location loc, Value a, Value bm,
                             Value c) {
  Type et = cast<VectorType>(a.getType()).getElementType();
  Type f32 = b.getF32Type();
  if (et.isF16())
    return nvgpu::MmaSyncOp::create(b, loc, a, bm, c,
                                    ArrayRef<int64_t>{16, 8, 16});
  auto i32x1 = VectorType::get({1}, b.getI32Type());
  auto regs = [&](Value v, int64_t rows) {
    SmallVector<Value> out;
    for (int64_t r = 0; r < rows; ++r) {
      Value p = vector::ExtractOp::create(b, loc, v, ArrayRef<int64_t>{r});
      p = vector::BitCastOp::create(b, loc, i32x1, p);
      out.push_back(vector::ExtractOp::create(b, loc, p, ArrayRef<int64_t>{0}));
    }
    return out;
  };
  SmallVector<Value> cS;
  for (int64_t i = 0; i < 4; ++i)
    cS.push_back(vector::ExtractOp::create(b, loc, c,
                                           ArrayRef<int64_t>{i / 2, i % 2}));
  auto resTy = LLVM::LLVMStructType::getLiteral(b.getContext(),
                                                {f32, f32, f32, f32});
  Value d = NVVM::MmaOp::create(
      b, loc, resTy, regs(a, 4), regs(bm, 2), cS, ArrayRef<int64_t>{16, 8, 16},
      std::nullopt, std::nullopt,
      std::array<NVVM::MMATypes, 2>{NVVM::MMATypes::bf16, NVVM::MMATypes::bf16},
      std::array<NVVM::MMALayout, 2>{NVVM::MMALayout::row, NVVM::MMALayout::col});
  SmallVector<Value> dS;
  for (int64_t i = 0; i < 4; ++i)
    dS.push_back(LLVM::ExtractValueOp::create(b, loc, d, ArrayRef<int64_t>{i}));
  return vector::FromElementsOp::create(b, loc, c.getType(), dS);
}

} // namespace dwc
} // namespace mlir

#endif // DWC_CONVERSION_MMAEMITTER_H
