// Pieces shared by the DMA reader and writer (docs/dma.md): parameters, derived widths, the
// AXI4 address-channel ports and output register, the burst splitter, the ID pool's
// free-index search and the round-robin pick of finished requests.
#pragma once

#include "hw/generators.h"
#include "search.h"
#include "vlog/ir.h"

#include <string>

namespace by::hw::dma {

/// Module parameters: AddrWidth, DataWidth, IdWidth, TagWidth, MaxInflight, MaxBurst, MaxBytes.
void declareParams(vlog::Module& m, const DmaParams& p);

/// The parameters of a DMA client (the load and store controllers): TagBits, LenBits,
/// DmaDataWidth (documented as `dataDoc`) and AddrBits.
void clientParams(vlog::Module& m, const AccelParams& p, const std::string& dataDoc);

/// Port width of a request length (1..MaxBytes bytes), as a parameter expression.
inline constexpr const char* kLenPortWidth = "$clog2(MaxBytes+1)";

/// Derived localparams used by both engines (BeatBytes, OffsetW, LenW, BeatAddrW, BufBeats,
/// BufW, BeatW, PageBeats, PageW, PageCntW, CountW, IdxW, Slots, SlotW).
void declareLocalParams(vlog::Body& b);

/// Ports of an AXI4 address channel: m_axi_<ch>{valid,ready,id,addr,len,size,burst,cache,prot}.
void addressChannelPorts(vlog::Module& m, const std::string& ch, const std::string& what);

/// The burst splitter. Given `<prefix>_addr` (beat address of the next burst, BeatAddrW bits)
/// and `<prefix>_left` (beats of the request still to issue, BeatW bits), declares and drives
/// `<prefix>_beats` (CountW bits): min(left, MaxBurst, beats to the next 4 KiB boundary), and
/// `<prefix>_final` (this burst ends the request).
void burstSplitter(vlog::Body& b, const std::string& prefix);

/// The ID pool's free-ID search: `id_free` (some ID is free) and `free_id` (the lowest one),
/// from `id_busy[MaxInflight]`.
void freeIdSearch(vlog::Body& b);

/// The address-channel output register for channel `ch` ("ar"/"aw"): loads {free_id,
/// split_addr, split_beats} on `<ch>_load` (declared and driven by the caller) and holds them
/// stable until the handshake, so AxVALID never drops and the payload never changes early.
void addressChannelRegister(vlog::Body& b, const std::string& ch);

/// Request intake shared by both engines: a request takes the lowest free slot (slot_free,
/// alloc_slot from slot_busy[Slots]); declares req_offset, req_base, req_len (clamped to
/// MaxBytes), req_end, req_beats and req_empty and drives all but req_beats (the engines count
/// an empty request's beats differently).
void requestIntake(vlog::Body& b);

/// An event of one of `count` slots or IDs decoded once a cycle: declares `name` (count bits) and
/// drives it with `fire` shifted to bit `index`. Per-slot state loaded under these bits costs a
/// Verilated model a bit test per slot, where compares fed by the AXI inputs would run in its
/// input region on both evaluations of a cycle.
void eventVector(vlog::Body& b, const std::string& name, const std::string& count,
                 const std::string& fire, const std::string& index, const std::string& comment);

/// Round-robin pick among `cand[Slots]`: the first candidate after `last`, wrapping around.
/// Declares `<pick>_valid` and `<pick>_slot`.
void roundRobin(vlog::Body& b, const std::string& cand, const std::string& last,
                const std::string& pick);

} // namespace by::hw::dma
