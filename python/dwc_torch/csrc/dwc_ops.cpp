// CUDA kernels of the dwc:: custom ops (schemas, fake kernels, the CPU
// implementation and autograd are registered in Python: dwc_torch/ops.py).
//
// Hot path: build the registry key of the call (ints), find the entry point
// compiled by dwc-aot (its trusted variant, dwc_<name>_trusted: the tensors'
// devices, shapes and dtypes are checked here, so the driver is not asked
// about each pointer), lay out the arguments (NHWC = channels_last, no copy
// when the tensor already is), set libdwc_runtime's external stream to
// PyTorch's current stream and call the entry point: no Python, no ctypes,
// no synchronisation. A key not yet in the registry is handed once to a
// Python resolver (compile on first use, or a kernel directory loaded by
// the user); a key that stays unresolved runs PyTorch's own operator.
#include <torch/extension.h>

#include <ATen/EmptyTensor.h>
#include <ATen/autocast_mode.h>
#include <torch/csrc/Exceptions.h>
#include <torch/csrc/autograd/python_variable.h>
#include <torch/csrc/autograd/functions/utils.h>
#include <c10/core/DeviceGuard.h>
#include <c10/core/impl/DeviceGuardImplInterface.h>

#include <dlfcn.h>

#include <atomic>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

namespace {

// A registry key: up to 24 ints, no heap allocation per call.
struct Key {
  int64_t v[24];
  int n = 0;
  Key() = default;
  Key(std::initializer_list<int64_t> l) {
    for (int64_t x : l)
      push_back(x);
  }
  void push_back(int64_t x) {
    TORCH_CHECK(n < 24, "dwc_torch: registry key too long");
    v[n++] = x;
  }
  bool operator==(const Key &o) const {
    return n == o.n && std::equal(v, v + n, o.v);
  }
  std::vector<int64_t> vec() const { return std::vector<int64_t>(v, v + n); }
};

struct KeyHash {
  size_t operator()(const Key &k) const {
    uint64_t h = 1469598103934665603ull;
    for (int i = 0; i < k.n; ++i)
      h = (h ^ static_cast<uint64_t>(k.v[i])) * 1099511628211ull;
    return static_cast<size_t>(h);
  }
};

enum Op : int64_t {
  Fwd = 0, BwdData, BwdFilter, PoolFwd, PoolBwd, Gap, ConvFwd, GapBwd, BwdBias, FusedFwd
};

using SetStreamFn = int (*)(void *);
using MessageFn = const char *(*)();
using TakeErrorFn = int (*)();

struct Runtime {
  SetStreamFn setStream = nullptr;
  MessageFn lastMessage = nullptr;
  TakeErrorFn takeError = nullptr;
};

Runtime runtime;
std::mutex registryMutex;
std::unordered_map<Key, void *, KeyHash> registry; // nullptr: unresolved
// The Python resolver (a callable or None), never destroyed: a static
// py::object would release its callable after the interpreter finalized.
py::object &resolver = *new py::object();
std::atomic<int64_t> counters[6]; // calls, fallbacks, copies, misses, routed, master

// Routed: ops of a converted layer that run PyTorch's kernel by convert()'s
// per-op choice (not a missing kernel, so not a fallback).
// MasterWeight: autocast calls that passed the f32 master weight (dwAutocast).
enum Counter { Calls = 0, Fallbacks, Copies, Misses, Routed, MasterWeight };
void count(Counter c) { counters[c].fetch_add(1, std::memory_order_relaxed); }

// Finds the entry point of `key`; asks the resolver once per unknown key.
void *lookup(const Key &key) {
  {
    std::lock_guard<std::mutex> lock(registryMutex);
    auto it = registry.find(key);
    if (it != registry.end())
      return it->second;
  }
  count(Misses);
  void *fn = nullptr;
  {
    py::gil_scoped_acquire gil;
    if (resolver && !resolver.is_none()) {
      try {
        py::object r = resolver(py::cast(key.vec()));
        if (!r.is_none())
          fn = reinterpret_cast<void *>(r.cast<uintptr_t>());
      } catch (py::error_already_set &e) {
        // A resolver failure must not fail the model: PyTorch runs it.
        PyErr_WarnEx(PyExc_RuntimeWarning,
                     (std::string("dwc_torch: kernel resolver failed: ") +
                      e.what()).c_str(), 1);
      }
    }
  }
  std::lock_guard<std::mutex> lock(registryMutex);
  registry[key] = fn;
  return fn;
}

int64_t dtypeId(at::ScalarType t) {
  switch (t) {
  case at::kFloat: return 0;
  case at::kHalf: return 1;
  case at::kBFloat16: return 2;
  case at::kDouble: return 3;
  default: return -1;
  }
}

// A channels_last, 16-byte aligned view of `t` (NHWC for the kernels).
at::Tensor nhwc(const at::Tensor &t) {
  at::Tensor r = t;
  if (!r.is_contiguous(at::MemoryFormat::ChannelsLast)) {
    r = r.contiguous(at::MemoryFormat::ChannelsLast);
    count(Copies);
  }
  if (reinterpret_cast<uintptr_t>(r.data_ptr()) % 16) {
    r = r.clone(at::MemoryFormat::ChannelsLast);
    count(Copies);
  }
  return r;
}

// `y` (NHWC, the kernels' layout) in the memory format PyTorch's own op
// returns for an input like `like`: its suggested format, so code after a
// converted layer (a .view()) works as after the stock one. An NCHW input
// costs a copy here and one into NHWC before the kernel: convert's timing
// (per shape class) sees both; a channels_last model pays neither.
at::Tensor asFormatOf(const at::Tensor &y, const at::Tensor &like) {
  if (like.suggest_memory_format() == at::MemoryFormat::ChannelsLast || y.is_contiguous())
    return y;
  count(Copies);
  return y.contiguous();
}

at::Tensor aligned(const at::Tensor &t) {
  at::Tensor r = t.contiguous();
  if (reinterpret_cast<uintptr_t>(r.data_ptr()) % 16)
    r = r.clone();
  return r;
}

// Makes x's device current for the scope of a CUDA op (allocation and
// launch), switching only when it is not already (c10::DeviceGuard would
// query and restore it through the CUDA runtime on every call).
class CurrentDevice {
public:
  explicit CurrentDevice(const at::Tensor &x) {
    const c10::impl::DeviceGuardImplInterface *impl =
        c10::impl::getDeviceGuardImpl(c10::DeviceType::CUDA);
    if (impl->getDevice() != x.device())
      guard_.reset_device(x.device());
  }

private:
  c10::OptionalDeviceGuard guard_;
};

// The trusted entry points take raw pointers without asking the driver
// whether they are device memory: every tensor of a call must be a CUDA
// tensor of x's device (the dispatcher only guarantees one of them is).
void checkDevice(const char *op, const char *what, const at::Tensor &t, const at::Tensor &x) {
  TORCH_CHECK(t.device() == x.device(), "dwc::", op, ": ", what, " is on ", t.device(),
              ", the input on ", x.device(), " (all tensors of a call on one device)");
}

// A new tensor on x's device (current, see CurrentDevice) from the
// allocator at::empty uses for CUDA tensors, without the dispatcher round
// trip of at::empty (the allocator is taken from the first tensor at::empty
// made; the same caching allocator, stream- and graph-capture-aware).
at::Tensor emptyCuda(at::IntArrayRef sizes, const at::Tensor &x, at::ScalarType dt,
                     at::MemoryFormat mf) {
  static std::atomic<c10::Allocator *> allocator{nullptr};
  c10::Allocator *a = allocator.load(std::memory_order_acquire);
  if (!a) {
    at::Tensor t = at::empty(sizes, x.options().dtype(dt).memory_format(mf));
    allocator.store(t.storage().allocator(), std::memory_order_release);
    return t;
  }
  constexpr c10::DispatchKeySet cuda(c10::DispatchKey::CUDA);
  return at::detail::empty_generic(sizes, a, cuda, dt, mf);
}

at::Tensor emptyNhwc(at::IntArrayRef sizes, const at::Tensor &x) {
  return emptyCuda(sizes, x, x.scalar_type(), at::MemoryFormat::ChannelsLast);
}

// Calls `fn` on the device pointers on PyTorch's current stream (on x's
// device, made current by the caller's CurrentDevice).
void launch(void *fn, const at::Tensor &any, std::initializer_list<void *> ptrs) {
  TORCH_CHECK(runtime.setStream, "dwc_torch: libdwc_runtime is not attached");
  c10::Stream s = c10::impl::getDeviceGuardImpl(c10::DeviceType::CUDA)
                      ->getStream(any.device());
  void *handle = s.native_handle();
  // PyTorch's default stream is handle 0, which for the runtime means "own
  // streams"; CU_STREAM_LEGACY (0x1) is the stream it is.
  runtime.setStream(handle ? handle : reinterpret_cast<void *>(0x1));
  void *p[5] = {nullptr, nullptr, nullptr, nullptr, nullptr};
  TORCH_CHECK(ptrs.size() <= 5, "dwc_torch: bad arity");
  std::copy(ptrs.begin(), ptrs.end(), p);
  int st;
  switch (ptrs.size()) {
  case 2: st = reinterpret_cast<int (*)(void *, void *)>(fn)(p[0], p[1]); break;
  case 3: st = reinterpret_cast<int (*)(void *, void *, void *)>(fn)(p[0], p[1], p[2]); break;
  case 4:
    st = reinterpret_cast<int (*)(void *, void *, void *, void *)>(fn)(p[0], p[1], p[2], p[3]);
    break;
  case 5:
    st = reinterpret_cast<int (*)(void *, void *, void *, void *, void *)>(fn)(p[0], p[1], p[2],
                                                                             p[3], p[4]);
    break;
  default: TORCH_CHECK(false, "dwc_torch: bad arity");
  }
  if (st != 0) {
    std::string msg = runtime.lastMessage ? runtime.lastMessage() : "";
    if (runtime.takeError)
      runtime.takeError();
    TORCH_CHECK(false, "dwc_torch: kernel failed (status ", st, "): ", msg);
  }
  count(Calls);
}

// The registry key of a convolution op on an input of `size` in dtype `dt`
// (dtypeId); oc >= 0 for the dense convolution.
Key convKeyOf(Op op, int64_t dt, at::IntArrayRef size, at::IntArrayRef k,
              at::IntArrayRef stride, at::IntArrayRef padding, at::IntArrayRef dilation,
              bool bias, int64_t oc = -1) {
  Key key{op, dt, size[0], size[1], size[2], size[3]};
  if (oc >= 0)
    key.push_back(oc);
  for (int64_t v : {k[0], k[1], stride[0], stride[1], dilation[0], dilation[1], padding[0],
                    padding[1], padding[2], padding[3], static_cast<int64_t>(bias ? 1 : 0)})
    key.push_back(v);
  return key;
}

Key convKey(Op op, const at::Tensor &x, at::IntArrayRef k, at::IntArrayRef stride,
            at::IntArrayRef padding, at::IntArrayRef dilation, bool bias,
            int64_t oc = -1) {
  return convKeyOf(op, dtypeId(x.scalar_type()), x.sizes(), k, stride, padding, dilation,
                   bias, oc);
}

// Whether the caller's re-laid-out filter can be used as it is: in the
// compute dtype `dt` (x's; under autocast the weight itself may be the f32
// master weight, see dwAutocast).
bool cachedFilter(const c10::optional<at::Tensor> &hwc, const at::Tensor &weight,
                  at::IntArrayRef sizes, at::ScalarType dt) {
  return hwc && hwc->defined() && hwc->scalar_type() == dt &&
         hwc->device() == weight.device() && hwc->sizes() == sizes && hwc->is_contiguous() &&
         reinterpret_cast<uintptr_t>(hwc->data_ptr()) % 16 == 0;
}

// Whether `t` is a tensor of torch.compile / torch.export tracing (fake or
// functional tensors, other Python subclasses, or under a Python dispatch
// mode): it has no data for a kernel launch, so the helpers that launch
// kernels directly (the autograd node's dW / dB) take PyTorch's ops, which
// trace, for it.
bool traced(const at::Tensor &t) {
  static const c10::DispatchKeySet keys({c10::DispatchKey::Python,
                                         c10::DispatchKey::PythonTLSSnapshot,
                                         c10::DispatchKey::Functionalize});
  return t.key_set().has_any(keys) ||
         c10::impl::tls_local_dispatch_key_set().included_.has_any(keys);
}

// Whether `t` itself is a tracing tensor (fake, functional or another
// Python subclass). A plain tensor under a Python dispatch mode (a
// profiler's, a FLOP counter's) is not: its calls choose as any other.
bool tracingTensor(const at::Tensor &t) {
  static const c10::DispatchKeySet keys({c10::DispatchKey::Python,
                                         c10::DispatchKey::Functionalize});
  return t.key_set().has_any(keys);
}

bool usable(const at::Tensor &x) {
  return x.dim() == 4 && x.numel() > 0 && dtypeId(x.scalar_type()) >= 0 && !traced(x);
}

int64_t outSize(int64_t in, int64_t k, int64_t s, int64_t d, int64_t p0, int64_t p1) {
  return (in + p0 + p1 - d * (k - 1) - 1) / s + 1;
}

bool symmetric(at::IntArrayRef p) { return p[0] == p[1] && p[2] == p[3]; }

// `w` in the dtype of `like` (a copy only where they differ: the f32 master
// weight of an autocast call on PyTorch's kernels).
at::Tensor inDtype(const at::Tensor &w, const at::Tensor &like) {
  return w.scalar_type() == like.scalar_type() ? w : w.to(like.scalar_type());
}

// PyTorch's depthwise/dense convolution with [t, b, l, r] padding.
at::Tensor torchConvAs(Counter why, const at::Tensor &x, const at::Tensor &w,
                       const c10::optional<at::Tensor> &b, at::IntArrayRef stride,
                       at::IntArrayRef padding, at::IntArrayRef dilation, int64_t groups) {
  count(why);
  if (symmetric(padding))
    return at::conv2d(x, w, b, stride, at::IntArrayRef({padding[0], padding[2]}), dilation, groups);
  at::Tensor xp = at::constant_pad_nd(x, {padding[2], padding[3], padding[0], padding[1]});
  return at::conv2d(xp, w, b, stride, at::IntArrayRef({0, 0}), dilation, groups);
}

at::Tensor torchConv(const at::Tensor &x, const at::Tensor &w,
                     const c10::optional<at::Tensor> &b, at::IntArrayRef stride,
                     at::IntArrayRef padding, at::IntArrayRef dilation, int64_t groups) {
  return torchConvAs(Fallbacks, x, w, b, stride, padding, dilation, groups);
}

at::Tensor dwForward(const at::Tensor &x, const at::Tensor &weight,
                     const c10::optional<at::Tensor> &bias, at::IntArrayRef stride,
                     at::IntArrayRef padding, at::IntArrayRef dilation,
                     const c10::optional<at::Tensor> &weightHwc) {
  TORCH_CHECK(padding.size() == 4, "dwc::depthwise_conv2d: padding is [t, b, l, r]");
  const int64_t C = weight.size(0), KH = weight.size(2), KW = weight.size(3);
  // A weight of another dtype than x (autocast's f32 master weight) comes
  // with its filter already re-laid out in x's dtype; otherwise PyTorch's
  // convolution runs on the weight cast to x's dtype.
  const bool mixed = x.scalar_type() != weight.scalar_type();
  if (mixed && !cachedFilter(weightHwc, weight, {KH * KW, C}, x.scalar_type()))
    return torchConv(x, inDtype(weight, x), bias, stride, padding, dilation, C);
  if (!usable(x) || (bias && bias->scalar_type() != x.scalar_type()))
    return torchConv(x, inDtype(weight, x), bias, stride, padding, dilation, C);
  // Shapes PyTorch's convolution would refuse: it runs them and raises.
  if (C != x.size(1) || weight.size(1) != 1 || (bias && bias->numel() != C))
    return torchConv(x, inDtype(weight, x), bias, stride, padding, dilation, C);
  void *fn = lookup(convKey(Fwd, x, {KH, KW}, stride, padding, dilation, bias.has_value()));
  if (!fn)
    return torchConv(x, inDtype(weight, x), bias, stride, padding, dilation, C);
  checkDevice("depthwise_conv2d", "the weight", weight, x);
  if (bias)
    checkDevice("depthwise_conv2d", "the bias", *bias, x);
  CurrentDevice device(x);
  at::Tensor xin = nhwc(x);
  at::Tensor w = cachedFilter(weightHwc, weight, {KH * KW, C}, x.scalar_type())
                     ? *weightHwc
                     : aligned(weight.reshape({C, KH * KW}).t());
  const int64_t OH = outSize(x.size(2), KH, stride[0], dilation[0], padding[0], padding[1]);
  const int64_t OW = outSize(x.size(3), KW, stride[1], dilation[1], padding[2], padding[3]);
  at::Tensor y = emptyNhwc({x.size(0), C, OH, OW}, x);
  if (bias) {
    at::Tensor b = aligned(*bias);
    launch(fn, x, {xin.data_ptr(), w.data_ptr(), b.data_ptr(), y.data_ptr()});
  } else {
    launch(fn, x, {xin.data_ptr(), w.data_ptr(), y.data_ptr()});
  }
  return asFormatOf(y, x);
}

// The fused forward (inference): y = act(conv(inAct(x + inBias), w) + bias)
// on the kernel of its registry key, or an undefined tensor when there is
// none (the caller then runs the unfused layers). `w` is the filter laid out
// as the kernels read it (KH*KW x C, x's dtype); `act` / `inAct` are ids of
// spec.ACTIVATIONS (0: none).
at::Tensor fusedForward(const at::Tensor &x, const at::Tensor &w,
                        const c10::optional<at::Tensor> &bias,
                        const c10::optional<at::Tensor> &inBias, std::vector<int64_t> kernel,
                        std::vector<int64_t> stride, std::vector<int64_t> padding,
                        std::vector<int64_t> dilation, int64_t act, int64_t inAct) {
  TORCH_CHECK(kernel.size() == 2 && stride.size() == 2 && padding.size() == 4 &&
                  dilation.size() == 2,
              "dwc::fused_forward: kernel, stride, dilation are pairs, padding [t, b, l, r]");
  const int64_t C = x.size(1), KH = kernel[0], KW = kernel[1];
  auto sameAs = [&](const c10::optional<at::Tensor> &v) {
    return !v || (v->scalar_type() == x.scalar_type() && v->numel() == C &&
                  v->device() == x.device());
  };
  if (!usable(x) || !x.is_cuda() || w.scalar_type() != x.scalar_type() ||
      w.device() != x.device() || w.numel() != KH * KW * C || !sameAs(bias) ||
      !sameAs(inBias))
    return at::Tensor();
  Key key = convKey(FusedFwd, x, {KH, KW}, stride, padding, dilation, bias.has_value());
  for (int64_t v : {act, inAct, static_cast<int64_t>(inBias ? 1 : 0)})
    key.push_back(v);
  void *fn = lookup(key);
  if (!fn)
    return at::Tensor();
  CurrentDevice device(x);
  at::Tensor xin = nhwc(x), wk = aligned(w);
  const int64_t OH = outSize(x.size(2), KH, stride[0], dilation[0], padding[0], padding[1]);
  const int64_t OW = outSize(x.size(3), KW, stride[1], dilation[1], padding[2], padding[3]);
  at::Tensor y = emptyNhwc({x.size(0), C, OH, OW}, x);
  at::Tensor b = bias ? aligned(*bias) : at::Tensor();
  at::Tensor ib = inBias ? aligned(*inBias) : at::Tensor();
  if (bias && inBias)
    launch(fn, x, {xin.data_ptr(), wk.data_ptr(), b.data_ptr(), ib.data_ptr(), y.data_ptr()});
  else if (bias)
    launch(fn, x, {xin.data_ptr(), wk.data_ptr(), b.data_ptr(), y.data_ptr()});
  else if (inBias)
    launch(fn, x, {xin.data_ptr(), wk.data_ptr(), ib.data_ptr(), y.data_ptr()});
  else
    launch(fn, x, {xin.data_ptr(), wk.data_ptr(), y.data_ptr()});
  return y;
}

// dX through PyTorch: the gradient of the padded input, cropped.
at::Tensor torchBwdData(const at::Tensor &gy, const at::Tensor &weight,
                        at::IntArrayRef size, at::IntArrayRef stride,
                        at::IntArrayRef padding, at::IntArrayRef dilation) {
  count(Fallbacks);
  const int64_t HP = size[2] + padding[0] + padding[1], WP = size[3] + padding[2] + padding[3];
  at::Tensor xp = at::empty({size[0], size[1], HP, WP}, gy.options());
  auto r = at::convolution_backward(gy, xp, weight, c10::nullopt, stride, {0, 0}, dilation,
                                    false, {0, 0}, weight.size(0), {true, false, false});
  return std::get<0>(r).narrow(2, padding[0], size[2]).narrow(3, padding[2], size[3]);
}

at::Tensor dwBackwardData(const at::Tensor &gy, const at::Tensor &weight,
                          at::IntArrayRef size, at::IntArrayRef stride,
                          at::IntArrayRef padding, at::IntArrayRef dilation,
                          const c10::optional<at::Tensor> &weightHwc) {
  TORCH_CHECK(size.size() == 4 && padding.size() == 4,
              "dwc::depthwise_conv2d_backward_data: input_size is [N, C, H, W], padding "
              "[t, b, l, r]");
  const int64_t C = weight.size(0), KH = weight.size(2), KW = weight.size(3);
  if (!usable(gy) || (gy.scalar_type() != weight.scalar_type() &&
                      !cachedFilter(weightHwc, weight, {KH * KW, C}, gy.scalar_type())))
    return torchBwdData(gy, inDtype(weight, gy), size, stride, padding, dilation);
  Key key{BwdData, dtypeId(gy.scalar_type()), size[0], size[1], size[2], size[3],
          KH, KW, stride[0], stride[1], dilation[0], dilation[1],
          padding[0], padding[1], padding[2], padding[3], 0};
  const int64_t OH = outSize(size[2], KH, stride[0], dilation[0], padding[0], padding[1]);
  const int64_t OW = outSize(size[3], KW, stride[1], dilation[1], padding[2], padding[3]);
  TORCH_CHECK(C == size[1] && weight.size(1) == 1 &&
                  gy.sizes() == at::IntArrayRef({size[0], C, OH, OW}),
              "dwc::depthwise_conv2d_backward_data: grad_out ", gy.sizes(), " and weight ",
              weight.sizes(), " do not match the input size ", size);
  void *fn = lookup(key);
  if (!fn)
    return torchBwdData(gy, inDtype(weight, gy), size, stride, padding, dilation);
  checkDevice("depthwise_conv2d_backward_data", "the weight", weight, gy);
  CurrentDevice device(gy);
  at::Tensor g = nhwc(gy);
  at::Tensor w = cachedFilter(weightHwc, weight, {KH * KW, C}, gy.scalar_type())
                     ? *weightHwc
                     : aligned(weight.reshape({C, KH * KW}).t());
  at::Tensor dx = emptyNhwc({size[0], size[1], size[2], size[3]}, gy);
  launch(fn, gy, {g.data_ptr(), w.data_ptr(), dx.data_ptr()});
  return asFormatOf(dx, gy);
}

at::Tensor torchBwdFilter(const at::Tensor &x, const at::Tensor &gy, at::IntArrayRef k,
                          at::IntArrayRef stride, at::IntArrayRef padding,
                          at::IntArrayRef dilation) {
  count(Fallbacks);
  at::Tensor xp = symmetric(padding) && padding[0] == 0 && padding[2] == 0
                      ? x
                      : at::constant_pad_nd(x, {padding[2], padding[3], padding[0], padding[1]});
  at::Tensor w = at::empty({x.size(1), 1, k[0], k[1]}, x.options());
  auto r = at::convolution_backward(gy, xp, w, c10::nullopt, stride, {0, 0}, dilation, false,
                                    {0, 0}, x.size(1), {false, true, false});
  return std::get<1>(r);
}

namespace redispatch {
at::Tensor dwc_bwd_filter(const at::Tensor &x, const at::Tensor &gy, at::IntArrayRef k,
                          at::IntArrayRef s, at::IntArrayRef p, at::IntArrayRef d);
} // namespace redispatch

// dW in dtype `out` (the op: x's; the autograd node of an autocast call:
// the f32 master weight's, so the kernel's f32 sums are neither rounded to
// 16 bits nor cast back), as nn.Conv2d's contiguous (C, 1, KH, KW): one copy
// kernel re-lays out (and casts) the kernels' KH*KW x C result.
at::Tensor dwBackwardFilterAs(const at::Tensor &x, const at::Tensor &gy, at::IntArrayRef k,
                              at::IntArrayRef stride, at::IntArrayRef padding,
                              at::IntArrayRef dilation, at::ScalarType out) {
  // Traced (torch.compile with autocast's master weight): dwc's op, which
  // traces, rather than PyTorch's dW below.
  if (traced(x) && gy.scalar_type() == x.scalar_type())
    return redispatch::dwc_bwd_filter(x, gy, k, stride, padding, dilation).to(out);
  if (!usable(x) || gy.scalar_type() != x.scalar_type())
    return torchBwdFilter(x, gy, k, stride, padding, dilation).to(out);
  const int64_t C = x.size(1);
  TORCH_CHECK(gy.dim() == 4 &&
                  gy.sizes() == at::IntArrayRef(
                                    {x.size(0), C,
                                     outSize(x.size(2), k[0], stride[0], dilation[0], padding[0],
                                             padding[1]),
                                     outSize(x.size(3), k[1], stride[1], dilation[1], padding[2],
                                             padding[3])}),
              "dwc::depthwise_conv2d_backward_filter: grad_out ", gy.sizes(),
              " does not match the input ", x.sizes());
  void *fn = lookup(convKey(BwdFilter, x, k, stride, padding, dilation, false));
  if (!fn)
    return torchBwdFilter(x, gy, k, stride, padding, dilation).to(out);
  checkDevice("depthwise_conv2d_backward_filter", "grad_out", gy, x);
  CurrentDevice device(x);
  at::Tensor xin = nhwc(x), g = nhwc(gy);
  // f16/bf16 layers sum dW in f32 (the op's f32 result), rounded once here.
  auto acc = x.scalar_type() == at::kDouble ? at::kDouble : at::kFloat;
  at::Tensor dw = emptyCuda({k[0] * k[1], C}, x, acc, at::MemoryFormat::Contiguous);
  launch(fn, x, {xin.data_ptr(), g.data_ptr(), dw.data_ptr()});
  at::Tensor r = emptyCuda({C, 1, k[0], k[1]}, x, out, at::MemoryFormat::Contiguous);
  r.copy_(dw.t().reshape({C, 1, k[0], k[1]}));
  return r;
}

// dB = dY summed over N, H, W in f32 (f64), in dtype `out`: the layer's
// conv2d_backward_bias kernel (keyed by the layer, as its backward ops)
// where it is loaded, else PyTorch's sum (several times slower on
// channels_last dY).
at::Tensor dwBackwardBias(const at::Tensor &x, const at::Tensor &gy, at::IntArrayRef k,
                          at::IntArrayRef stride, at::IntArrayRef padding,
                          at::IntArrayRef dilation, at::ScalarType out) {
  auto acc = gy.scalar_type() == at::kDouble ? at::kDouble : at::kFloat;
  void *fn = x.is_cuda() && usable(x) && gy.scalar_type() == x.scalar_type() && gy.dim() == 4 &&
                     gy.size(0) == x.size(0) && gy.size(1) == x.size(1)
                 ? lookup(convKey(BwdBias, x, k, stride, padding, dilation, true))
                 : nullptr;
  if (!fn)
    return gy.sum({0, 2, 3}, false, acc).to(out);
  checkDevice("depthwise_conv2d", "grad_out", gy, x);
  CurrentDevice device(x);
  at::Tensor g = nhwc(gy);
  at::Tensor db = emptyCuda({x.size(1)}, x, acc, at::MemoryFormat::Contiguous);
  launch(fn, x, {g.data_ptr(), db.data_ptr()});
  return db.to(out);
}

at::Tensor dwBackwardFilter(const at::Tensor &x, const at::Tensor &gy, at::IntArrayRef k,
                            at::IntArrayRef stride, at::IntArrayRef padding,
                            at::IntArrayRef dilation) {
  return dwBackwardFilterAs(x, gy, k, stride, padding, dilation, x.scalar_type());
}

Key poolKeyOf(Op op, int64_t dt, at::IntArrayRef size, int64_t kind, at::IntArrayRef window,
              at::IntArrayRef stride, at::IntArrayRef padding, bool ceil, bool cip) {
  return Key{op, dt, size[0], size[1], size[2], size[3],
             kind, window[0], window[1], stride[0], stride[1], padding[0], padding[1],
             padding[2], padding[3], ceil ? 1 : 0, (kind == 1 && cip) ? 1 : 0};
}

Key poolKey(Op op, const at::Tensor &x, int64_t kind, at::IntArrayRef window,
            at::IntArrayRef stride, at::IntArrayRef padding, bool ceil, bool cip) {
  return poolKeyOf(op, dtypeId(x.scalar_type()), x.sizes(), kind, window, stride, padding,
                   ceil, cip);
}

int64_t poolKind(c10::string_view kind) {
  TORCH_CHECK(kind == "max" || kind == "avg", "dwc::pool2d: kind is max or avg");
  return kind == "max" ? 0 : 1;
}

at::Tensor torchPool(const at::Tensor &x, int64_t kind, at::IntArrayRef window,
                     at::IntArrayRef stride, at::IntArrayRef padding, bool ceil, bool cip) {
  count(Fallbacks);
  TORCH_CHECK(symmetric(padding), "dwc::pool2d: PyTorch pooling needs symmetric padding");
  if (kind == 0)
    return at::max_pool2d(x, window, stride, {padding[0], padding[2]}, {1, 1}, ceil);
  return at::avg_pool2d(x, window, stride, {padding[0], padding[2]}, ceil, cip);
}

int64_t poolOut(int64_t in, int64_t k, int64_t s, int64_t p0, int64_t p1, bool ceil) {
  if (!ceil)
    return (in + p0 + p1 - k) / s + 1;
  int64_t o = (in + p0 + p1 - k + s - 1) / s + 1;
  if ((o - 1) * s >= in + p0)
    --o;
  return o;
}

at::Tensor poolForward(const at::Tensor &x, c10::string_view kindName, at::IntArrayRef window,
                       at::IntArrayRef stride, at::IntArrayRef padding, bool ceil, bool cip) {
  const int64_t kind = poolKind(kindName);
  if (!usable(x) || x.scalar_type() == at::kDouble)
    return torchPool(x, kind, window, stride, padding, ceil, cip);
  void *fn = lookup(poolKey(PoolFwd, x, kind, window, stride, padding, ceil, cip));
  if (!fn)
    return torchPool(x, kind, window, stride, padding, ceil, cip);
  CurrentDevice device(x);
  at::Tensor xin = nhwc(x);
  at::Tensor y = emptyNhwc(
      {x.size(0), x.size(1), poolOut(x.size(2), window[0], stride[0], padding[0], padding[1], ceil),
       poolOut(x.size(3), window[1], stride[1], padding[2], padding[3], ceil)},
      x);
  launch(fn, x, {xin.data_ptr(), y.data_ptr()});
  return asFormatOf(y, x);
}

at::Tensor torchPoolBackward(const at::Tensor &x, const at::Tensor &gy, int64_t kind,
                             at::IntArrayRef window, at::IntArrayRef stride,
                             at::IntArrayRef padding, bool ceil, bool cip) {
  count(Fallbacks);
  TORCH_CHECK(symmetric(padding), "dwc::pool2d_backward: PyTorch pooling needs symmetric padding");
  if (kind == 0) {
    auto r = at::max_pool2d_with_indices(x, window, stride, {padding[0], padding[2]}, {1, 1}, ceil);
    return at::max_pool2d_with_indices_backward(gy, x, window, stride, {padding[0], padding[2]},
                                                {1, 1}, ceil, std::get<1>(r));
  }
  // PyTorch's channels_last CUDA kernel of avg_pool2d_backward ignores the
  // padding when it maps an input position to its windows (wrong gradients
  // for padding > 0: pytorch/pytorch#188344, torch 2.11); its NCHW kernel is
  // right, so padded windows go through contiguous tensors.
  if (padding[0] > 0 || padding[2] > 0)
    return at::avg_pool2d_backward(gy.contiguous(), x.contiguous(), window, stride,
                                   {padding[0], padding[2]}, ceil, cip, c10::nullopt)
        .contiguous(at::MemoryFormat::ChannelsLast);
  return at::avg_pool2d_backward(gy, x, window, stride, {padding[0], padding[2]}, ceil, cip,
                                 c10::nullopt);
}

at::Tensor poolBackward(const at::Tensor &x, const at::Tensor &gy, c10::string_view kindName,
                        at::IntArrayRef window, at::IntArrayRef stride,
                        at::IntArrayRef padding, bool ceil, bool cip) {
  const int64_t kind = poolKind(kindName);
  if (!usable(x) || x.scalar_type() == at::kDouble || gy.scalar_type() != x.scalar_type())
    return torchPoolBackward(x, gy, kind, window, stride, padding, ceil, cip);
  TORCH_CHECK(gy.dim() == 4 &&
                  gy.sizes() == at::IntArrayRef(
                                    {x.size(0), x.size(1),
                                     poolOut(x.size(2), window[0], stride[0], padding[0],
                                             padding[1], ceil),
                                     poolOut(x.size(3), window[1], stride[1], padding[2],
                                             padding[3], ceil)}),
              "dwc::pool2d_backward: grad_out ", gy.sizes(), " does not match the input ",
              x.sizes());
  void *fn = lookup(poolKey(PoolBwd, x, kind, window, stride, padding, ceil, cip));
  if (!fn)
    return torchPoolBackward(x, gy, kind, window, stride, padding, ceil, cip);
  checkDevice("pool2d_backward", "grad_out", gy, x);
  CurrentDevice device(x);
  at::Tensor xin = nhwc(x), g = nhwc(gy);
  at::Tensor dx = emptyNhwc(x.sizes(), x);
  launch(fn, x, {xin.data_ptr(), g.data_ptr(), dx.data_ptr()});
  return asFormatOf(dx, x);
}

at::Tensor globalAvgPool(const at::Tensor &x) {
  if (!usable(x) || x.scalar_type() == at::kDouble) {
    count(Fallbacks);
    return at::mean(x, {2, 3}, true);
  }
  void *fn = lookup(Key{Gap, dtypeId(x.scalar_type()), x.size(0), x.size(1), x.size(2),
                        x.size(3)});
  if (!fn) {
    count(Fallbacks);
    return at::mean(x, {2, 3}, true);
  }
  CurrentDevice device(x);
  at::Tensor xin = nhwc(x);
  at::Tensor y = emptyNhwc({x.size(0), x.size(1), 1, 1}, x);
  launch(fn, x, {xin.data_ptr(), y.data_ptr()});
  // N x C x 1 x 1 is both layouts; the strides as PyTorch's mean gives them.
  if (x.suggest_memory_format() != at::MemoryFormat::ChannelsLast)
    return y.as_strided({x.size(0), x.size(1), 1, 1}, {x.size(1), 1, 1, 1});
  return y;
}

// PyTorch's gradient of the mean over H x W (where no dwc kernel runs it).
at::Tensor torchGapBackward(const at::Tensor &gy, at::IntArrayRef size) {
  count(Fallbacks);
  return (gy.expand(size) / static_cast<double>(size[2] * size[3]))
      .contiguous(at::MemoryFormat::ChannelsLast);
}

// dX = dY / (H * W) broadcast over the map: the kernel of
// dwc.pool2d_backward avg over the whole input (#dwc.global_pool_backward).
// Its first operand (x) gives only the shape and is not read: dX's own
// buffer is passed for it.
at::Tensor globalAvgPoolBackward(const at::Tensor &gy, at::IntArrayRef size) {
  TORCH_CHECK(size.size() == 4 && gy.dim() == 4 && gy.size(0) == size[0] &&
                  gy.size(1) == size[1] && gy.size(2) == 1 && gy.size(3) == 1,
              "dwc::global_avg_pool_backward: grad_out ", gy.sizes(),
              " is not the N x C x 1 x 1 of the input size ", size);
  if (!usable(gy) || gy.scalar_type() == at::kDouble || size[2] <= 0 || size[3] <= 0)
    return torchGapBackward(gy, size);
  void *fn = lookup(Key{GapBwd, dtypeId(gy.scalar_type()), size[0], size[1], size[2], size[3]});
  if (!fn)
    return torchGapBackward(gy, size);
  CurrentDevice device(gy);
  at::Tensor g = nhwc(gy);
  at::Tensor dx = emptyNhwc(size, gy);
  launch(fn, gy, {dx.data_ptr(), g.data_ptr(), dx.data_ptr()});
  return dx;
}

at::Tensor convForward(const at::Tensor &x, const at::Tensor &weight,
                       const c10::optional<at::Tensor> &bias, at::IntArrayRef stride,
                       at::IntArrayRef padding, at::IntArrayRef dilation,
                       const c10::optional<at::Tensor> &weightHwc) {
  const int64_t OC = weight.size(0), KH = weight.size(2), KW = weight.size(3);
  if (!usable(x) || x.scalar_type() != weight.scalar_type() ||
      (bias && bias->scalar_type() != x.scalar_type()))
    return torchConv(x, weight, bias, stride, padding, dilation, 1);
  if (weight.size(1) != x.size(1) || (bias && bias->numel() != OC))
    return torchConv(x, weight, bias, stride, padding, dilation, 1);
  void *fn = lookup(convKey(ConvFwd, x, {KH, KW}, stride, padding, dilation,
                            bias.has_value(), OC));
  if (!fn)
    return torchConv(x, weight, bias, stride, padding, dilation, 1);
  checkDevice("conv2d", "the weight", weight, x);
  if (bias)
    checkDevice("conv2d", "the bias", *bias, x);
  CurrentDevice device(x);
  at::Tensor xin = nhwc(x);
  // nn.Conv2d's OC x C x KH x KW -> the op's KH x KW x C x OC.
  at::Tensor w = cachedFilter(weightHwc, weight, {KH, KW, weight.size(1), OC},
                              x.scalar_type())
                     ? *weightHwc
                     : aligned(weight.permute({2, 3, 1, 0}));
  at::Tensor y = emptyNhwc(
      {x.size(0), OC, outSize(x.size(2), KH, stride[0], dilation[0], padding[0], padding[1]),
       outSize(x.size(3), KW, stride[1], dilation[1], padding[2], padding[3])},
      x);
  if (bias) {
    at::Tensor b = aligned(*bias);
    launch(fn, x, {xin.data_ptr(), w.data_ptr(), b.data_ptr(), y.data_ptr()});
  } else {
    launch(fn, x, {xin.data_ptr(), w.data_ptr(), y.data_ptr()});
  }
  return asFormatOf(y, x);
}

// --- autograd and autocast of dwc::depthwise_conv2d on CUDA ---------------
// The hot op's autograd and autocast kernels are C++ as well (Python's
// versions, registered for all devices in ops.py, cost ~30 us per call).
// Both re-dispatch, so fake tensors (torch.compile) reach the fake kernel.

using OptT = c10::optional<at::Tensor>;
using DwSig = at::Tensor(const at::Tensor &, const at::Tensor &, const OptT &,
                         at::IntArrayRef, at::IntArrayRef, at::IntArrayRef, const OptT &);

const c10::TypedOperatorHandle<DwSig> &dwOp() {
  static auto op = c10::Dispatcher::singleton()
                       .findSchemaOrThrow("dwc::depthwise_conv2d", "")
                       .typed<DwSig>();
  return op;
}

OptT opt(const at::Tensor &t) { return t.defined() ? OptT(t) : OptT(); }

namespace redispatch {
at::Tensor dwc_bwd_data(const at::Tensor &gy, const at::Tensor &w, at::IntArrayRef size,
                        at::IntArrayRef s, at::IntArrayRef p, at::IntArrayRef d, const OptT &h) {
  static auto op = c10::Dispatcher::singleton()
                       .findSchemaOrThrow("dwc::depthwise_conv2d_backward_data", "")
                       .typed<at::Tensor(const at::Tensor &, const at::Tensor &, at::IntArrayRef,
                                         at::IntArrayRef, at::IntArrayRef, at::IntArrayRef,
                                         const OptT &)>();
  return op.call(gy, w, size, s, p, d, h);
}
at::Tensor dwc_bwd_filter(const at::Tensor &x, const at::Tensor &gy, at::IntArrayRef k,
                          at::IntArrayRef s, at::IntArrayRef p, at::IntArrayRef d) {
  static auto op = c10::Dispatcher::singleton()
                       .findSchemaOrThrow("dwc::depthwise_conv2d_backward_filter", "")
                       .typed<at::Tensor(const at::Tensor &, const at::Tensor &, at::IntArrayRef,
                                         at::IntArrayRef, at::IntArrayRef, at::IntArrayRef)>();
  return op.call(x, gy, k, s, p, d);
}
} // namespace redispatch

// --- per-op routes of a converted layer -----------------------------------
// convert() times each op of a depthwise layer on both sides and may keep
// dwc for some of them only (e.g. the forward and dX, but PyTorch's dW where
// that kernel is slower). The module's plan holds the route and sets it for
// the duration of its call; the autograd kernel takes it (and clears it, so
// no nested call sees it) and stores it in the node, which runs on the
// autograd engine's thread. Calls through torch.ops (torch.compile, export)
// carry no route: every op runs on dwc.
enum RouteBit : uint8_t { RouteFwd = 1, RouteBwdData = 2, RouteBwdFilter = 4 };
thread_local uint8_t tlsRoute = 0;

struct RouteScope {
  uint8_t saved;
  explicit RouteScope(uint8_t r) : saved(tlsRoute) { tlsRoute = r; }
  ~RouteScope() { tlsRoute = saved; }
};

uint8_t takeRoute() {
  uint8_t r = tlsRoute;
  tlsRoute = 0;
  return r;
}

// PyTorch's dX and/or dW of a depthwise convolution, as its own autograd
// computes them (aten::convolution_backward on the saved input and weight);
// asymmetric padding through the padded input, dX cropped.
std::pair<at::Tensor, at::Tensor> torchDwBackward(const at::Tensor &gy, const at::Tensor &x,
                                                  const at::Tensor &w, at::IntArrayRef stride,
                                                  at::IntArrayRef padding,
                                                  at::IntArrayRef dilation, bool data,
                                                  bool filter) {
  count(Routed);
  const bool sym = symmetric(padding);
  at::Tensor xp =
      sym ? x : at::constant_pad_nd(x, {padding[2], padding[3], padding[0], padding[1]});
  std::vector<int64_t> pad = {sym ? padding[0] : 0, sym ? padding[2] : 0};
  auto r = at::convolution_backward(gy, xp, w, c10::nullopt, stride, pad, dilation, false,
                                    {0, 0}, w.size(0), {data, filter, false});
  at::Tensor dx = std::get<0>(r);
  if (data && !sym)
    dx = dx.narrow(2, padding[0], x.size(2)).narrow(3, padding[2], x.size(3));
  return {dx, std::get<1>(r)};
}

// The autograd node of dwc::depthwise_conv2d, written as PyTorch's generated
// nodes are (ConvolutionBackward0 & co.) rather than through
// autograd::Function<>: no AutogradContext (its IValue map of saved data,
// the std::function wrappers, _wrap_outputs' input map, per-input VariableInfo
// copies); the configuration is plain ints; x and the weight are
// SavedVariables (their version counters checked at backward), the cached
// filter is held as it is (the plan replaces it, never updates it in place).
struct DwBackward : public torch::autograd::Node {
  torch::autograd::SavedVariable x_, w_;
  at::Tensor hwc_;
  int64_t stride_[2], padding_[4], dilation_[2];
  bool bias_ = false;
  uint8_t route_ = 0; // RouteBit: the backward ops that run PyTorch's kernels

  std::string name() const override { return "DwcDepthwiseConv2dBackward"; }

  void release_variables() override {
    x_.reset_data();
    w_.reset_data();
    hwc_.reset();
  }

  torch::autograd::variable_list apply(torch::autograd::variable_list &&grads) override {
    at::Tensor gy = grads[0], dx, dw, db;
    if (!gy.defined())
      return {dx, dw, db};
    const at::Tensor x = x_.unpack(shared_from_this()), w = w_.unpack(shared_from_this());
    at::IntArrayRef stride(stride_, 2), padding(padding_, 4), dilation(dilation_, 2);
    const bool wantData = should_compute_output(0), wantFilter = should_compute_output(1);
    const bool torchData = wantData && (route_ & RouteBwdData),
               torchFilter = wantFilter && (route_ & RouteBwdFilter);
    if (torchData || torchFilter) // one call where both are PyTorch's
      std::tie(dx, dw) = torchDwBackward(gy, x, inDtype(w, gy), stride, padding, dilation,
                                         torchData, torchFilter);
    if (wantData && !torchData)
      dx = redispatch::dwc_bwd_data(gy, w, x.sizes(), stride, padding, dilation, opt(hwc_));
    // An f32 master weight (dwAutocast) gets the kernel's f32 dW as it is.
    if (wantFilter && !torchFilter)
      dw = w.scalar_type() != x.scalar_type() && x.is_cuda()
               ? dwBackwardFilterAs(x, gy, w.sizes().slice(2), stride, padding, dilation,
                                    w.scalar_type())
               : redispatch::dwc_bwd_filter(x, gy, w.sizes().slice(2), stride, padding,
                                            dilation);
    if (dw.defined())
      dw = dw.to(w.scalar_type());
    if (bias_ && should_compute_output(2))
      db = dwBackwardBias(x, gy, w.sizes().slice(2), stride, padding, dilation,
                          gy.scalar_type());
    return {dx, dw, db};
  }
};

// The forward below autograd: dwc's op, or PyTorch's convolution where the
// route says so.
at::Tensor dwForwardRouted(uint8_t route, const at::Tensor &x, const at::Tensor &weight,
                           const OptT &bias, at::IntArrayRef stride, at::IntArrayRef padding,
                           at::IntArrayRef dilation, const OptT &hwc) {
  at::AutoDispatchBelowADInplaceOrView guard;
  if (route & RouteFwd)
    return torchConvAs(Routed, x, inDtype(weight, x), bias, stride, padding, dilation,
                       weight.size(0));
  return dwOp().call(x, weight, bias, stride, padding, dilation, hwc);
}

at::Tensor dwRecord(uint8_t route, const at::Tensor &x, const at::Tensor &weight,
                    const OptT &bias, at::IntArrayRef stride, at::IntArrayRef padding,
                    at::IntArrayRef dilation, const OptT &hwc) {
  std::shared_ptr<DwBackward> node(new DwBackward(), torch::autograd::deleteNode);
  node->set_next_edges(torch::autograd::collect_next_edges(x, weight, bias));
  at::Tensor y = dwForwardRouted(route, x, weight, bias, stride, padding, dilation, hwc);
  node->route_ = route;
  std::copy(stride.begin(), stride.end(), node->stride_);
  std::copy(padding.begin(), padding.end(), node->padding_);
  std::copy(dilation.begin(), dilation.end(), node->dilation_);
  node->bias_ = bias.has_value() && bias->defined();
  node->x_ = torch::autograd::SavedVariable(x, false);
  node->w_ = torch::autograd::SavedVariable(weight, false);
  if (hwc)
    node->hwc_ = *hwc;
  torch::autograd::set_history(y, node);
  return y;
}

bool needsGrad(const at::Tensor &x, const at::Tensor &w, const OptT &b) {
  return at::GradMode::is_enabled() &&
         (x.requires_grad() || w.requires_grad() || (b && b->defined() && b->requires_grad()));
}

at::Tensor dwAutograd(const at::Tensor &x, const at::Tensor &weight, const OptT &bias,
                      at::IntArrayRef stride, at::IntArrayRef padding, at::IntArrayRef dilation,
                      const OptT &hwc) {
  // Nothing to record (no_grad, inference, frozen layers): straight to the
  // kernel, without an autograd node.
  const uint8_t route = takeRoute();
  if (!needsGrad(x, weight, bias))
    return dwForwardRouted(route, x, weight, bias, stride, padding, dilation, hwc);
  return dwRecord(route, x, weight, bias, stride, padding, dilation, hwc);
}

// aten::conv2d's autocast policy: floating inputs other than f64 to the
// autocast dtype (weights through autocast's cast cache).
at::Tensor dwAutocast(const at::Tensor &x, const at::Tensor &weight, const OptT &bias,
                      at::IntArrayRef stride, at::IntArrayRef padding, at::IntArrayRef dilation,
                      const OptT &hwc) {
  c10::impl::ExcludeDispatchKeyGuard noAutocast(c10::DispatchKey::AutocastCUDA);
  const auto dt = at::autocast::get_autocast_dtype(at::kCUDA);
  auto cast = [&](const at::Tensor &t) {
    return t.is_floating_point() && t.scalar_type() != at::kDouble
               ? at::autocast::cached_cast(dt, t, c10::DeviceType::CUDA)
               : t;
  };
  OptT b = bias ? OptT(cast(*bias)) : OptT();
  OptT h = hwc && hwc->scalar_type() == dt ? hwc : OptT();
  // With the filter already re-laid out in the autocast dtype (a module's
  // plan), the op takes the f32 weight itself: its kernels read the cached
  // filter, and autograd's edge goes straight to the master weight, so the
  // step runs no cast of the weight (forward) and none of dW back to f32
  // (backward) -- a cast kernel and an autograd node less each, per layer.
  const bool master = h && weight.scalar_type() == at::kFloat && dt != at::kFloat;
  if (master)
    count(MasterWeight);
  return dwOp().call(cast(x), master ? weight : cast(weight), b, stride, padding, dilation,
                     h);
}

// --- autograd of pool2d and global_avg_pool on CUDA ----------------------

using PoolSig = at::Tensor(const at::Tensor &, c10::string_view, at::IntArrayRef,
                           at::IntArrayRef, at::IntArrayRef, bool, bool);
using PoolBwdSig = at::Tensor(const at::Tensor &, const at::Tensor &, c10::string_view,
                              at::IntArrayRef, at::IntArrayRef, at::IntArrayRef, bool, bool);

const c10::TypedOperatorHandle<PoolSig> &poolOp() {
  static auto op = c10::Dispatcher::singleton().findSchemaOrThrow("dwc::pool2d", "")
                       .typed<PoolSig>();
  return op;
}

const c10::TypedOperatorHandle<at::Tensor(const at::Tensor &)> &gapOp() {
  static auto op = c10::Dispatcher::singleton().findSchemaOrThrow("dwc::global_avg_pool", "")
                       .typed<at::Tensor(const at::Tensor &)>();
  return op;
}

class PoolFunction : public torch::autograd::Function<PoolFunction> {
public:
  // conf: window (2), stride (2), padding (4), ceil, count_include_pad.
  static at::Tensor forward(torch::autograd::AutogradContext *ctx, const at::Tensor &x,
                            std::string kind, std::vector<int64_t> conf) {
    at::AutoDispatchBelowADInplaceOrView guard;
    at::IntArrayRef c(conf);
    at::Tensor y = poolOp().call(x, kind, c.slice(0, 2), c.slice(2, 2), c.slice(4, 4),
                                 conf[8] != 0, conf[9] != 0);
    ctx->save_for_backward({x});
    ctx->saved_data["kind"] = kind;
    ctx->saved_data["conf"] = std::move(conf);
    return y;
  }

  static torch::autograd::variable_list backward(torch::autograd::AutogradContext *ctx,
                                                 torch::autograd::variable_list grads) {
    static auto op = c10::Dispatcher::singleton()
                         .findSchemaOrThrow("dwc::pool2d_backward", "")
                         .typed<PoolBwdSig>();
    auto saved = ctx->get_saved_variables();
    const auto conf = ctx->saved_data["conf"].toIntVector();
    const std::string kind = ctx->saved_data["kind"].toStringRef();
    at::IntArrayRef c(conf);
    at::Tensor dx = op.call(saved[0], grads[0], kind, c.slice(0, 2), c.slice(2, 2),
                            c.slice(4, 4), conf[8] != 0, conf[9] != 0);
    return {dx, at::Tensor(), at::Tensor()};
  }
};

at::Tensor poolAutograd(const at::Tensor &x, c10::string_view kind, at::IntArrayRef window,
                        at::IntArrayRef stride, at::IntArrayRef padding, bool ceil, bool cip) {
  if (!(at::GradMode::is_enabled() && x.requires_grad())) {
    at::AutoDispatchBelowADInplaceOrView guard;
    return poolOp().call(x, kind, window, stride, padding, ceil, cip);
  }
  std::vector<int64_t> conf(window.begin(), window.end());
  conf.insert(conf.end(), stride.begin(), stride.end());
  conf.insert(conf.end(), padding.begin(), padding.end());
  conf.push_back(ceil ? 1 : 0);
  conf.push_back(cip ? 1 : 0);
  return PoolFunction::apply(x, std::string(kind), std::move(conf));
}

class GapFunction : public torch::autograd::Function<GapFunction> {
public:
  static at::Tensor forward(torch::autograd::AutogradContext *ctx, const at::Tensor &x) {
    at::AutoDispatchBelowADInplaceOrView guard;
    ctx->saved_data["shape"] = x.sizes().vec();
    return gapOp().call(x);
  }

  // Through the dispatcher: dwc's kernel where one is loaded for the shape,
  // else PyTorch's expand / divide (torchGapBackward); fake tensors and the
  // profiler see dwc::global_avg_pool_backward.
  static torch::autograd::variable_list backward(torch::autograd::AutogradContext *ctx,
                                                 torch::autograd::variable_list grads) {
    static auto op = c10::Dispatcher::singleton()
                         .findSchemaOrThrow("dwc::global_avg_pool_backward", "")
                         .typed<at::Tensor(const at::Tensor &, at::IntArrayRef)>();
    const auto shape = ctx->saved_data["shape"].toIntVector();
    return {op.call(grads[0], shape)};
  }
};

at::Tensor gapAutograd(const at::Tensor &x) {
  if (!(at::GradMode::is_enabled() && x.requires_grad())) {
    at::AutoDispatchBelowADInplaceOrView guard;
    return gapOp().call(x);
  }
  return GapFunction::apply(x);
}

// --- per-module launch plans (the hot path of a converted module) --------
// Whether PyTorch's current stream on x's device is capturing a CUDA graph
// (cuStreamIsCapturing of the driver PyTorch loaded; false without one).
bool capturing(const at::Tensor &x) {
  using IsCapturingFn = int (*)(void *, int *);
  static IsCapturingFn fn = [] {
    void *h = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_NOLOAD);
    return h ? reinterpret_cast<IsCapturingFn>(dlsym(h, "cuStreamIsCapturing")) : nullptr;
  }();
  if (!fn)
    return false;
  void *s = c10::impl::getDeviceGuardImpl(c10::DeviceType::CUDA)
                ->getStream(x.device())
                .native_handle();
  int status = 0; // CU_STREAM_CAPTURE_STATUS_NONE
  return s && fn(s, &status) == 0 && status != 0;
}

// A converted module holds one: its fixed arguments and, for convolutions,
// the filter re-laid out as the kernels read it, cached against the
// parameter's version counter (bumped by every in-place update, e.g.
// optimizer.step()), its storage and dtype (autocast's). Calling a plan
// enters PyTorch's dispatcher from C++ -- autograd, autocast, fake tensors
// and the profiler see the same op as through torch.ops -- without Python's
// argument parsing (~10 us of the ~20 us a torch.ops call costs).

using ConvSig = DwSig;

const c10::TypedOperatorHandle<ConvSig> &convOp() {
  static auto op = c10::Dispatcher::singleton().findSchemaOrThrow("dwc::conv2d", "")
                       .typed<ConvSig>();
  return op;
}

// The kernels' filter layout of `w` in dtype `dt` (no autograd, no
// inference-mode tensor: it may be saved for backward).
at::Tensor relayoutFilter(const at::Tensor &w, at::ScalarType dt, bool dense) {
  c10::InferenceMode notInference(false);
  at::NoGradGuard noGrad;
  at::Tensor d = w.detach();
  if (!dense) {
    // The cast and the transposition in one copy kernel.
    at::Tensor out = at::empty({d.size(2) * d.size(3), d.size(0)}, d.options().dtype(dt));
    out.copy_(d.reshape({d.size(0), d.size(2) * d.size(3)}).t());
    return out;
  }
  if (d.scalar_type() != dt)
    d = d.to(dt);
  return d.permute({2, 3, 1, 0}).contiguous();
}

// --- the per-shape-class choice of a converted layer ----------------------
// A converted layer runs dwc's kernels only for the shape classes it has
// every needed kernel for and that its policy chose; every other call runs
// exactly what the stock PyTorch module runs: the plan returns None and the
// module calls nn.Conv2d.forward (or the pool's), so the same layout, the
// same cuDNN call, no extra copy and PyTorch's own autograd node. A shape
// class is what a kernel and its cost depend on beyond the layer's fixed
// arguments: the compute dtype (autocast's), N, C, H, W, whether the input
// is channels_last (an NCHW one costs two copies on dwc's side), and which
// gradients autograd will ask for (bit 1: dX, bit 2: the parameters').
// The choice of a class is never taken from another: a class is decided
// when first met -- convert's tuned class as it measured it (`choose`),
// others by the plan's decider (a measurement on the GPU, set by a tuned
// convert) or, without one, dwc wherever the kernels are.
constexpr int kStock = -1;   // the class runs stock PyTorch
constexpr int kUnknown = -2; // not decided yet

struct ShapeClass {
  int64_t v[7] = {0, 0, 0, 0, 0, 0, 0};
  bool operator==(const ShapeClass &o) const { return std::equal(v, v + 7, o.v); }
  std::vector<int64_t> vec() const { return std::vector<int64_t>(v, v + 7); }
  int64_t dtype() const { return v[0]; }
  at::IntArrayRef size() const { return at::IntArrayRef(v + 1, 4); }
  bool wantsDx() const { return v[6] & 1; }
  bool wantsParams() const { return v[6] & 2; }
};

// The compute dtype of a call on x under the current autocast state
// (`autocasts`: the op is one autocast casts, as aten::conv2d).
at::ScalarType computeDtype(const at::Tensor &x, bool autocasts) {
  const auto dev = x.device().type();
  if (autocasts && x.is_floating_point() && x.scalar_type() != at::kDouble &&
      at::autocast::is_autocast_enabled(dev))
    return at::autocast::get_autocast_dtype(dev);
  return x.scalar_type();
}

ShapeClass shapeClass(const at::Tensor &x, bool autocasts, bool paramsNeedGrad) {
  ShapeClass c;
  c.v[0] = dtypeId(computeDtype(x, autocasts));
  for (int i = 0; i < 4; ++i)
    c.v[1 + i] = x.size(i);
  c.v[5] = x.suggest_memory_format() == at::MemoryFormat::ChannelsLast ? 1 : 0;
  const bool grad = at::GradMode::is_enabled();
  c.v[6] = (grad && x.requires_grad() ? 1 : 0) | (grad && paramsNeedGrad ? 2 : 0);
  return c;
}

// Whether x's calls may take dwc's kernels: CUDA tensors with data (a test
// build of the extension takes CPU tensors too, with the kernels it is told
// of, and never launches them: the CPU implementation is PyTorch's).
bool kernelDevice(const at::Tensor &x) {
#ifdef DWC_TEST_CPU_AUTOGRAD
  const bool device = x.is_cuda() || x.is_cpu();
#else
  const bool device = x.is_cuda();
#endif
  return device && x.dim() == 4 && x.numel() > 0 && dtypeId(x.scalar_type()) >= 0;
}

class Choices {
public:
  // The class's choice: a route (>= 0: dwc, with these ops on PyTorch's
  // kernels), kStock, or kUnknown.
  int find(const ShapeClass &c) const {
    for (const auto &e : table_)
      if (e.first == c)
        return e.second;
    return kUnknown;
  }
  void set(const ShapeClass &c, int choice) {
    for (auto &e : table_)
      if (e.first == c) {
        e.second = choice;
        return;
      }
    table_.emplace_back(c, choice);
  }
  void clear() { table_.clear(); }
  py::dict asDict() const {
    py::dict d;
    for (const auto &e : table_)
      d[py::tuple(py::cast(e.first.vec()))] = e.second;
    return d;
  }

  // Decides class c met first in a call on x: stock without every kernel
  // the class needs (`ready(route)`), else the decider's answer (none while
  // a CUDA graph is captured: stock for that call, decided later), else
  // `fallbackRoute`.
  template <typename Ready>
  int decide(const ShapeClass &c, const at::Tensor &x, int fallbackRoute, Ready ready) {
    if (!ready(fallbackRoute))
      return remember(c, kStock);
    if (!decider || decider.is_none())
      return remember(c, fallbackRoute);
    if (x.is_cuda() && capturing(x))
      return kStock;
    int choice = kStock;
    try {
      choice = decider(x, c.vec()).cast<int>();
    } catch (py::error_already_set &e) {
      if (e.matches(PyExc_KeyboardInterrupt))
        throw;
      // A failed measurement must not fail the model: stock runs the class.
      PyErr_WarnEx(PyExc_RuntimeWarning,
                   (std::string("dwc_torch: a converted layer's first-sight measurement "
                                "failed, the shape class runs stock PyTorch: ") +
                    e.what()).c_str(), 1);
      return remember(c, kStock);
    }
    TORCH_CHECK(choice >= kStock && choice <= 7, "dwc_torch: a plan's decider returns -1 "
                "(stock) or a route 0..7, got ", choice);
    return remember(c, choice == kStock || ready(choice) ? choice : kStock);
  }

  py::object decider; // Python: decider(x, shape class) -> choice; None: no measurement

private:
  int remember(const ShapeClass &c, int choice) {
    set(c, choice);
    return choice;
  }
  std::vector<std::pair<ShapeClass, int>> table_;
};

void setChoice(Choices &choices, const std::vector<int64_t> &cls, int choice) {
  TORCH_CHECK(cls.size() == 7 && choice >= kStock && choice <= 7,
              "dwc_torch: choose([dtype, N, C, H, W, channels_last, grads], -1 or a route)");
  ShapeClass c;
  std::copy(cls.begin(), cls.end(), c.v);
  choices.set(c, choice);
}

class ConvPlan {
public:
  ConvPlan(std::vector<int64_t> stride, std::vector<int64_t> padding,
           std::vector<int64_t> dilation, bool dense)
      : stride_(std::move(stride)), padding_(std::move(padding)),
        dilation_(std::move(dilation)), dense_(dense) {
    TORCH_CHECK(stride_.size() == 2 && padding_.size() == 4 && dilation_.size() == 2,
                "dwc_torch: a plan takes stride[2], padding[4], dilation[2]");
  }

  // The layer's output, or an undefined tensor (None in Python) where this
  // call's shape class runs stock PyTorch (the module then calls
  // nn.Conv2d.forward). Tracing tensors take the op (tracing records it).
  at::Tensor call(const at::Tensor &x, const at::Tensor &w, const OptT &b) {
    const int choice = tracingTensor(x) ? route_ : choose(x, w, b);
    if (choice == kStock)
      return at::Tensor();
    const uint8_t route = static_cast<uint8_t>(choice);
    // The cached filter serves dwc's forward and dX; none when both are PyTorch's.
    const uint8_t both = RouteFwd | RouteBwdData;
    OptT hwc = (route & both) == both ? OptT() : filter(x, w);
    if (dense_)
      return convOp().call(x, w, b, stride_, padding_, dilation_, hwc);
    RouteScope scope(route);
    return dwOp().call(x, w, b, stride_, padding_, dilation_, hwc);
  }

  // RouteBit mask: which of the layer's ops run PyTorch's kernels, in the
  // shape classes decided without a measurement (those decided before are
  // forgotten: their choice was made with the old route).
  int64_t route() const { return route_; }
  void setRoute(int64_t r) {
    TORCH_CHECK(r >= 0 && r <= 7 && (!dense_ || r == 0),
                "dwc_torch: a route is a mask of 1 (forward), 2 (dX), 4 (dW) of a depthwise "
                "plan, got ", r);
    route_ = static_cast<uint8_t>(r);
    choices_.clear();
  }

  Choices &choices() { return choices_; }
  ShapeClass shapeClassOf(const at::Tensor &x, const at::Tensor &w, const OptT &b) const {
    return shapeClass(x, true, w.requires_grad() || (b && b->defined() && b->requires_grad()));
  }

  // The cached filter for a call on x (None off the GPU and for tensors
  // without storage, e.g. fake or subclass tensors).
  OptT filter(const at::Tensor &x, const at::Tensor &w) {
    if (!x.is_cuda() || !w.is_cuda() || !w.has_storage() ||
        w.key_set().has(c10::DispatchKey::Python))
      return OptT();
    at::ScalarType dt = w.scalar_type();
    if (dt != at::kDouble && at::autocast::is_autocast_enabled(at::kCUDA))
      dt = at::autocast::get_autocast_dtype(at::kCUDA);
    // Inside a CUDA graph the re-layout is part of the graph (replays after
    // an optimizer step must see the new weight), and not cached -- unless
    // the plan is frozen (dwc_torch.freeze: inference graphs) and the cache
    // holds this weight: then replays read the cached filter, one kernel
    // per layer less.
    if (capturing(x) && !(frozen_ && cacheHolds(w, dt)))
      return relayoutFilter(w, dt, dense_);
    if (!cacheHolds(w, dt)) {
      hwc_ = relayoutFilter(w, dt, dense_);
      version_ = w._version();
      ptr_ = w.data_ptr();
      dtype_ = dt;
      sizes_ = w.sizes().vec();
      ++relayouts_;
    }
    return hwc_;
  }

  bool frozen() const { return frozen_; }
  void setFrozen(bool f) { frozen_ = f; }

  int64_t relayouts() const { return relayouts_; }

private:
  // The choice of x's shape class (decided on first sight, see Choices);
  // stock off the kernels' devices and where a route leaves every op the
  // call runs to PyTorch.
  int choose(const at::Tensor &x, const at::Tensor &w, const OptT &b) {
    if (!kernelDevice(x))
      return kStock;
    const ShapeClass c = shapeClassOf(x, w, b);
    int choice = choices_.find(c);
    if (choice == kUnknown)
      choice = choices_.decide(c, x, route_, [&](int r) { return kernelsReady(c, w, b, r); });
    return choice != kStock && allRouted(c, choice) ? kStock : choice;
  }

  bool allRouted(const ShapeClass &c, int route) const {
    return !dense_ && (route & RouteFwd) && (!c.wantsDx() || (route & RouteBwdData)) &&
           (!c.wantsParams() || (route & RouteBwdFilter));
  }

  // Whether every op of class c that `route` leaves on dwc has its kernel
  // (found, compiled on first use or loaded; see lookup).
  bool kernelsReady(const ShapeClass &c, const at::Tensor &w, const OptT &b, int route) const {
    const int64_t dt = c.dtype();
    const at::IntArrayRef size = c.size(), k = w.sizes().slice(2);
    const bool bias = b.has_value() && b->defined();
    auto has = [&](Op op, bool withBias, int64_t oc) {
      return lookup(convKeyOf(op, dt, size, k, stride_, padding_, dilation_, withBias, oc)) !=
             nullptr;
    };
    if (dense_)
      return has(ConvFwd, bias, w.size(0));
    return ((route & RouteFwd) || has(Fwd, bias, -1)) &&
           (!c.wantsDx() || (route & RouteBwdData) || has(BwdData, false, -1)) &&
           (!c.wantsParams() || (route & RouteBwdFilter) || has(BwdFilter, false, -1));
  }

public:
  std::vector<int64_t> tag() const {
    return {version_, static_cast<int64_t>(reinterpret_cast<uintptr_t>(ptr_)),
            static_cast<int64_t>(dtype_)};
  }
  at::Tensor cached() const { return hwc_; }

private:
  // Whether the cached filter is `w`'s, as it is now, in dtype `dt`.
  bool cacheHolds(const at::Tensor &w, at::ScalarType dt) const {
    return hwc_.defined() && w._version() == version_ && w.data_ptr() == ptr_ &&
           dt == dtype_ && w.device() == hwc_.device() && w.sizes() == sizes_;
  }

  std::vector<int64_t> stride_, padding_, dilation_;
  bool dense_, frozen_ = false;
  uint8_t route_ = 0;
  Choices choices_;
  at::Tensor hwc_;
  int64_t version_ = -1, relayouts_ = 0;
  void *ptr_ = nullptr;
  at::ScalarType dtype_ = at::kFloat;
  std::vector<int64_t> sizes_;
};

// The plan of a converted pooling layer: kind "max" or "avg" (window,
// stride, padding, ceil_mode, count_include_pad) or "gap" (global average
// pooling, the rest unused).
class PoolPlan {
public:
  PoolPlan(std::string kind, std::vector<int64_t> window, std::vector<int64_t> stride,
           std::vector<int64_t> padding, bool ceil, bool cip)
      : kind_(std::move(kind)), window_(std::move(window)), stride_(std::move(stride)),
        padding_(std::move(padding)), ceil_(ceil), cip_(cip) {
    TORCH_CHECK(kind_ == "gap" || kind_ == "max" || kind_ == "avg",
                "dwc_torch: a pool plan's kind is max, avg or gap, got ", kind_);
    TORCH_CHECK(window_.size() == 2 && stride_.size() == 2 && padding_.size() == 4,
                "dwc_torch: a pool plan takes window[2], stride[2], padding[4]");
  }

  // The layer's output, or an undefined tensor (None): stock PyTorch runs
  // this call's shape class (see ConvPlan::call).
  at::Tensor call(const at::Tensor &x) {
    if (!tracingTensor(x) && choose(x) == kStock)
      return at::Tensor();
    if (kind_ == "gap")
      return gapOp().call(x);
    return poolOp().call(x, kind_, window_, stride_, padding_, ceil_, cip_);
  }

  Choices &choices() { return choices_; }
  ShapeClass shapeClassOf(const at::Tensor &x) const { return shapeClass(x, false, false); }

private:
  int choose(const at::Tensor &x) {
    if (!kernelDevice(x) || x.scalar_type() == at::kDouble)
      return kStock;
    const ShapeClass c = shapeClassOf(x);
    const int choice = choices_.find(c);
    if (choice != kUnknown)
      return choice;
    return choices_.decide(c, x, 0, [&](int) { return kernelsReady(c); });
  }

  bool kernelsReady(const ShapeClass &c) const {
    const at::IntArrayRef n = c.size();
    if (kind_ == "gap")
      return lookup(Key{Gap, c.dtype(), n[0], n[1], n[2], n[3]}) &&
             (!c.wantsDx() || lookup(Key{GapBwd, c.dtype(), n[0], n[1], n[2], n[3]}));
    const int64_t kind = kind_ == "max" ? 0 : 1;
    auto has = [&](Op op) {
      return lookup(poolKeyOf(op, c.dtype(), n, kind, window_, stride_, padding_, ceil_,
                              cip_)) != nullptr;
    };
    return has(PoolFwd) && (!c.wantsDx() || has(PoolBwd));
  }

  std::string kind_;
  std::vector<int64_t> window_, stride_, padding_;
  bool ceil_, cip_;
  Choices choices_;
};

// --- the plans' __call__ as the type's call slot ---------------------------
// A converted module's forward calls its plan once per call; as a pybind11
// method that is an overload resolution, argument vectors and casters per
// call. The call slot (tp_call) takes the tensors straight from the Python
// objects; errors are raised as PyTorch raises them (RuntimeError, ...).

template <typename Plan> Plan *planOf(PyObject *self) {
  auto *inst = reinterpret_cast<py::detail::instance *>(self);
  Plan *plan = inst->get_value_and_holder().value_ptr<Plan>();
  if (!plan)
    throw py::type_error("dwc_torch: the plan is not constructed");
  return plan;
}

const at::Tensor &tensorArg(PyObject *args, Py_ssize_t i, const char *what) {
  PyObject *o = PyTuple_GET_ITEM(args, i);
  if (!THPVariable_Check(o))
    throw py::type_error(std::string("dwc_torch plan: ") + what + " must be a Tensor");
  return THPVariable_Unpack(o);
}

void checkCallArgs(PyObject *args, PyObject *kwargs, Py_ssize_t n, const char *signature) {
  if ((kwargs && PyDict_GET_SIZE(kwargs) != 0) || PyTuple_GET_SIZE(args) != n)
    throw py::type_error(std::string("dwc_torch: call a plan as ") + signature);
}

PyObject *convPlanCall(PyObject *self, PyObject *args, PyObject *kwargs) {
  HANDLE_TH_ERRORS
  checkCallArgs(args, kwargs, 3, "plan(x, weight, bias or None)");
  const at::Tensor &x = tensorArg(args, 0, "x"), &w = tensorArg(args, 1, "weight");
  PyObject *b = PyTuple_GET_ITEM(args, 2);
  OptT bias = b == Py_None ? OptT() : OptT(tensorArg(args, 2, "bias"));
  return THPVariable_Wrap(planOf<ConvPlan>(self)->call(x, w, bias));
  END_HANDLE_TH_ERRORS
}

PyObject *poolPlanCall(PyObject *self, PyObject *args, PyObject *kwargs) {
  HANDLE_TH_ERRORS
  checkCallArgs(args, kwargs, 1, "plan(x)");
  return THPVariable_Wrap(planOf<PoolPlan>(self)->call(tensorArg(args, 0, "x")));
  END_HANDLE_TH_ERRORS
}

template <typename Class> void setCallSlot(Class &cls, ternaryfunc call) {
  auto *type = reinterpret_cast<PyTypeObject *>(cls.ptr());
  type->tp_call = call;
  PyType_Modified(type);
}

// --- Python-facing control (not on the hot path) --------------------------

// A plan's shape-class choices (see Choices): `choose(class, choice)`,
// `choices` ({class: choice}), `decider` (callable or None).
template <typename Plan> void bindChoices(py::class_<Plan> &cls) {
  cls.def("choose", [](Plan &p, const std::vector<int64_t> &c, int choice) {
        setChoice(p.choices(), c, choice);
      }, py::arg("shape_class"), py::arg("choice"))
      .def("forget_choices", [](Plan &p) { p.choices().clear(); })
      .def_property_readonly("choices", [](Plan &p) { return p.choices().asDict(); })
      .def_property(
          "decider",
          [](Plan &p) { return p.choices().decider ? p.choices().decider : py::none(); },
          [](Plan &p, py::object f) { p.choices().decider = std::move(f); });
}


void attachRuntime(uintptr_t setStream, uintptr_t lastMessage, uintptr_t takeError) {
  runtime.setStream = reinterpret_cast<SetStreamFn>(setStream);
  runtime.lastMessage = reinterpret_cast<MessageFn>(lastMessage);
  runtime.takeError = reinterpret_cast<TakeErrorFn>(takeError);
}

void setResolver(py::object fn) { resolver = std::move(fn); }

void registerKernel(const std::vector<int64_t> &key, uintptr_t fn) {
  Key k;
  for (int64_t v : key)
    k.push_back(v);
  std::lock_guard<std::mutex> lock(registryMutex);
  registry[k] = reinterpret_cast<void *>(fn);
}

// Forgets unresolved keys (after new kernels were loaded) or all of them.
void clearRegistry(bool unresolvedOnly) {
  std::lock_guard<std::mutex> lock(registryMutex);
  if (!unresolvedOnly) {
    registry.clear();
    return;
  }
  for (auto it = registry.begin(); it != registry.end();)
    it = it->second ? std::next(it) : registry.erase(it);
}

py::dict stats() {
  py::dict d;
  d["calls"] = counters[Calls].load();
  d["fallbacks"] = counters[Fallbacks].load();
  d["layout_copies"] = counters[Copies].load();
  d["misses"] = counters[Misses].load();
  d["routed"] = counters[Routed].load();
  d["master_weight"] = counters[MasterWeight].load();
  std::lock_guard<std::mutex> lock(registryMutex);
  int64_t resolved = 0;
  for (auto &kv : registry)
    resolved += kv.second != nullptr;
  d["resolved_keys"] = resolved;
  d["unresolved_keys"] = static_cast<int64_t>(registry.size()) - resolved;
  return d;
}

void resetStats() {
  for (auto &c : counters)
    c.store(0);
}

} // namespace

TORCH_LIBRARY_IMPL(dwc, AutogradCUDA, m) {
  m.impl("depthwise_conv2d", &dwAutograd);
  m.impl("pool2d", &poolAutograd);
  m.impl("global_avg_pool", &gapAutograd);
}

TORCH_LIBRARY_IMPL(dwc, AutocastCUDA, m) { m.impl("depthwise_conv2d", &dwAutocast); }

#ifdef DWC_TEST_CPU_AUTOGRAD // tests of the C++ autograd on a machine without a GPU
TORCH_LIBRARY_IMPL(dwc, AutogradCPU, m) {
  m.impl("depthwise_conv2d", &dwAutograd);
  m.impl("pool2d", &poolAutograd);
  m.impl("global_avg_pool", &gapAutograd);
}
#endif

TORCH_LIBRARY_IMPL(dwc, CUDA, m) {
  m.impl("depthwise_conv2d", &dwForward);
  m.impl("depthwise_conv2d_backward_data", &dwBackwardData);
  m.impl("depthwise_conv2d_backward_filter", &dwBackwardFilter);
  m.impl("pool2d", &poolForward);
  m.impl("pool2d_backward", &poolBackward);
  m.impl("global_avg_pool", &globalAvgPool);
  m.impl("global_avg_pool_backward", &globalAvgPoolBackward);
  m.impl("conv2d", &convForward);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.def("attach_runtime", &attachRuntime);
  m.def("set_resolver", &setResolver);
  m.def("register_kernel", &registerKernel);
  m.def("clear_registry", &clearRegistry, py::arg("unresolved_only") = true);
  m.def("stats", &stats);
  m.def("reset_stats", &resetStats);
  py::class_<ConvPlan> convPlan(m, "ConvPlan");
  convPlan
      .def(py::init<std::vector<int64_t>, std::vector<int64_t>, std::vector<int64_t>, bool>(),
           py::arg("stride"), py::arg("padding"), py::arg("dilation"), py::arg("dense"))
      .def("filter", &ConvPlan::filter)
      .def_property("route", &ConvPlan::route, &ConvPlan::setRoute)
      .def_property("frozen", &ConvPlan::frozen, &ConvPlan::setFrozen)
      .def_property_readonly("relayouts", &ConvPlan::relayouts)
      .def_property_readonly("tag", &ConvPlan::tag)
      .def_property_readonly("cached", &ConvPlan::cached);
  bindChoices(convPlan);
  convPlan.def("shape_class", [](const ConvPlan &p, const at::Tensor &x, const at::Tensor &w,
                                 const OptT &b) { return p.shapeClassOf(x, w, b).vec(); });
  setCallSlot(convPlan, &convPlanCall);
  py::class_<PoolPlan> poolPlan(m, "PoolPlan");
  poolPlan.def(py::init<std::string, std::vector<int64_t>, std::vector<int64_t>,
                        std::vector<int64_t>, bool, bool>());
  bindChoices(poolPlan);
  poolPlan.def("shape_class",
               [](const PoolPlan &p, const at::Tensor &x) { return p.shapeClassOf(x).vec(); });
  setCallSlot(poolPlan, &poolPlanCall);
  m.def("fused_forward", &fusedForward, py::arg("x"), py::arg("w"), py::arg("bias"),
        py::arg("input_bias"), py::arg("kernel"), py::arg("stride"), py::arg("padding"),
        py::arg("dilation"), py::arg("act"), py::arg("input_act"),
        "A fused depthwise forward on its dwc kernel; an undefined tensor (None) when "
        "there is none");
  m.def("is_traced", [](const at::Tensor &t) { return traced(t); },
        "whether the kernel-launching helpers leave `t` to PyTorch's ops (tracing)");
}
