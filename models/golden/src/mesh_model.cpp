#include "golden/mesh_model.h"

#include "golden/arith.h"

namespace by::golden {

PeModel::PeModel(const hw::ArrayParams& params)
    : p_(params), c1_(params.regWidth()), c2_(params.regWidth()) {}

PeOutputs PeModel::step(const PeInputs& in) {
  const int iw = p_.inputWidth, aw = p_.accWidth, ow = p_.outputWidth, lanes = p_.lanes;
  const bool ws = p_.both() ? in.ws : p_.hasWs;
  BitVec& active = in.prop ? c2_ : c1_;
  BitVec& shadow = in.prop ? c1_ : c2_;

  // Dot product of the lanes, wrapping at acc_width.
  int64_t dot = 0;
  for (int l = 0; l < lanes; ++l) {
    const int64_t a = in.a.getSigned(l * iw, iw);
    const int64_t m = ws ? active.getSigned(l * iw, iw) : in.b.getSigned(l * iw, iw);
    dot = wrap(dot + a * m, aw);
  }

  PeOutputs out{BitVec(p_.bWidth()), BitVec(p_.dWidth())};
  BitVec shadowNext(p_.regWidth()), activeNext = active;
  if (ws) {
    // Partial sum from above plus the dot product, wrapping at the output width.
    out.b.set(0, ow, static_cast<uint64_t>(wrap(in.b.getSigned(0, ow) + dot, ow)));
    out.c.copyFrom(shadow, 0, 0, lanes * iw);
    shadowNext.copyFrom(in.d, 0, 0, lanes * iw);
  } else {
    const int64_t acc = wrap(active.getSigned(0, aw) + dot, aw);
    const unsigned shift = in.prop != lastProp_ ? in.shift : 0;
    const int64_t result = saturate(roundingShift(shadow.getSigned(0, aw), shift), ow);
    out.b = in.b;
    out.c.set(0, ow, static_cast<uint64_t>(result));
    // The incoming result is sign-extended into the shadow; the accumulator zero-extended
    // (only its low acc_width bits are ever read).
    const int64_t incoming = in.d.getSigned(0, ow);
    shadowNext.set(0, aw, static_cast<uint64_t>(incoming));
    shadowNext.fill(aw, p_.regWidth() - aw, incoming < 0);
    activeNext = BitVec(p_.regWidth());
    activeNext.set(0, aw, static_cast<uint64_t>(acc));
  }
  if (in.valid) {
    shadow = shadowNext;
    active = activeNext;
    lastProp_ = in.prop;
  }
  return out;
}

MeshModel::MeshModel(const hw::ArrayParams& params) : p_(params) {
  pes_.assign(static_cast<size_t>(p_.dim * p_.dim), PeModel(p_));
}

MeshBeat MeshModel::zeroBeat() const {
  MeshBeat beat;
  beat.valid = true;
  beat.ws = p_.hasWs;
  beat.a = BitVec(p_.dim * p_.aWidth());
  beat.b = BitVec(p_.dim * p_.bWidth());
  beat.d = BitVec(p_.dim * p_.dWidth());
  return beat;
}

MeshResult MeshModel::step(const MeshBeat& beat) {
  const int dim = p_.dim, aw = p_.aWidth(), bw = p_.bWidth(), dw = p_.dWidth();
  MeshResult r;
  r.valid = beat.valid;
  r.result = BitVec(dim * p_.outputWidth);
  // Values entering each column from above, updated as the wavefront moves down.
  std::vector<BitVec> b(static_cast<size_t>(dim), BitVec(bw)),
      d(static_cast<size_t>(dim), BitVec(dw));
  for (int c = 0; c < dim; ++c) {
    b[c].copyFrom(beat.b, c * bw, 0, bw);
    d[c].copyFrom(beat.d, c * dw, 0, dw);
  }
  const bool ws = p_.both() ? beat.ws : p_.hasWs;
  for (int r0 = 0; r0 < dim; ++r0) {
    PeInputs in;
    in.a = BitVec(aw);
    in.a.copyFrom(beat.a, r0 * aw, 0, aw); // a passes unchanged along the row
    in.valid = beat.valid;
    in.prop = beat.prop;
    in.ws = ws;
    in.shift = beat.shift;
    for (int c = 0; c < dim; ++c) {
      in.b = b[c];
      in.d = d[c];
      PeOutputs out = pes_[static_cast<size_t>(r0 * dim + c)].step(in);
      b[c] = out.b;
      d[c] = out.c;
    }
  }
  for (int c = 0; c < dim; ++c)
    r.result.copyFrom(ws ? b[c] : d[c], 0, c * p_.outputWidth, p_.outputWidth);
  return r;
}

} // namespace by::golden
