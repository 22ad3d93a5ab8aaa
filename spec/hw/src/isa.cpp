#include "hwspec/isa.h"

#include "hwspec/array_params.h"

#include <cstdio>
#include <sstream>
#include <stdexcept>

namespace by::hw::isa {

namespace {

constexpr const char* kMvinDramDoc = "DRAM byte address of the first row (0: write zeros); "
                                     "compressed channel: of the block's pointer-table entry";

// Operand layouts shared by several commands.
std::vector<Field> localOperand(const std::string& what) {
  return {{"local_addr", 0, 32, what + " local address (see Local addresses)"},
          {"cols", 32, 16, "columns (elements per row)"},
          {"rows", 48, 16, "rows"}};
}

// LOOP_WS and its five configuration commands (Gemmini's encodings; loops.ws). Bounds count
// DIM x DIM tiles; the strides are in elements, as in gemmini.h.
void loopWsCommands(std::vector<Command>& c) {
  const char* gated = " UNKNOWN_FUNCT without loops.ws.";
  c.push_back(
      {"LOOP_WS",
       kLoopWs,
       -1,
       "gemmini_loop_ws",
       Queue::Loop,
       std::string("Runs the weight-stationary matmul loop configured by the LOOP_WS_CONFIG_* "
                   "commands: C = A x B (+ D) over I x J x K tiles of DIM x DIM, unrolled by the "
                   "accelerator into MVIN/MVIN2/MVIN3/PRELOAD/COMPUTE/MVOUT commands "
                   "(\"LOOP_WS\" above).") +
           gated,
       {{"ex_accumulate", 0, 1,
         "1: the first K tile adds onto the accumulator (the bias D or an earlier loop's "
         "partial sums); 0: it overwrites"},
        {"full_C", 1, 1, "C leaves as raw acc_t (MVOUT with `full`); 0: scaled elem_t"},
        {"low_D", 2, 1, "D is elem_t in DRAM (MVIN3 with shrink); 0: acc_t"},
        {"act", 8, 8,
         "Gemmini's normalizer activation: 0 none or 1 ReLU (the MVOUTs then apply CONFIG_ST's "
         "activation, as on Gemmini); others UNSUPPORTED"},
        {"b_spad_id", 16, 2,
         "0: B in this loop's scratchpad half; n = 1, 2: B ends at row n x sp_rows/2"},
        {"a_spad_id", 18, 2,
         "0: A in this loop's scratchpad half; n = 1, 2: A starts at row (n-1) x sp_rows/2"}},
       {{"a_transpose", 0, 1,
         "1: A stored transposed (K x I, rows A_stride apart): its tiles come in as stored and "
         "the computes read them through the transposer; must equal CONFIG_EX's a_transpose, "
         "else UNSUPPORTED"},
        {"b_transpose", 1, 1,
         "1: B stored transposed (J x K, rows B_stride apart), likewise; must equal CONFIG_EX's "
         "b_transpose, else UNSUPPORTED"},
        {"is_resadd", 2, 1, "Gemmini's residual-add loop: must be 0, UNSUPPORTED"},
        {"a_compressed", 3, 1,
         "Boveda: A is a compressed matrix; its MVINs name pointer entries at A + (i x A_stride "
         "+ k / MAX_BLOCK_LEN) x 8 (A_stride in entries). Must equal MVIN channel 0's "
         "compressed state; not with a_transpose; else UNSUPPORTED"},
        {"b_compressed", 4, 1,
         "Boveda: B is a compressed matrix; its MVIN2s name pointer entries at B + (k x B_stride "
         "+ j / MAX_BLOCK_LEN) x 8. Must equal channel 1's compressed state; not with "
         "b_transpose; else UNSUPPORTED"},
        {"c_compressed", 5, 1,
         "Boveda: C leaves compressed; its MVOUTs write pointer entries at C + (i x C_stride + "
         "j / MAX_BLOCK_LEN) x 8. Must equal CONFIG_ST's compressed state; not with full_C; "
         "else UNSUPPORTED"}}});
  c.push_back({"LOOP_WS_CONFIG_BOUNDS",
               kLoopWsConfigBounds,
               -1,
               "gemmini_loop_ws",
               Queue::Loop,
               std::string("Sets the tile counts and the padding of the last tiles of the next "
                           "LOOP_WS.") +
                   gated,
               {{"pad_I", 0, 16, "rows of A and C missing from the last I tile (< DIM)"},
                {"pad_J", 16, 16, "columns of B and C missing from the last J tile (< DIM)"},
                {"pad_K", 32, 16, "columns of A / rows of B missing from the last K tile (< DIM)"}},
               {{"I", 0, 16, "tiles of DIM rows of A and C"},
                {"J", 16, 16, "tiles of DIM columns of B and C"},
                {"K", 32, 16, "tiles of DIM columns of A / rows of B"}}});
  c.push_back({"LOOP_WS_CONFIG_ADDRS_AB",
               kLoopWsConfigAddrsAb,
               -1,
               "gemmini_loop_ws",
               Queue::Loop,
               std::string("Sets the DRAM addresses of A and B of the next LOOP_WS.") + gated,
               {{"A", 0, 64, "DRAM byte address of A (0: A is already in the scratchpad)"}},
               {{"B", 0, 64, "DRAM byte address of B (0: B is already in the scratchpad)"}}});
  c.push_back({"LOOP_WS_CONFIG_ADDRS_DC",
               kLoopWsConfigAddrsDc,
               -1,
               "gemmini_loop_ws",
               Queue::Loop,
               std::string("Sets the DRAM addresses of D and C of the next LOOP_WS.") + gated,
               {{"D", 0, 64, "DRAM byte address of the bias D (0: no bias loaded)"}},
               {{"C", 0, 64,
                 "DRAM byte address of C (0: C stays in the accumulator, and the next loop "
                 "accumulates onto it)"}}});
  c.push_back(
      {"LOOP_WS_CONFIG_STRIDES_AB",
       kLoopWsConfigStridesAb,
       -1,
       "gemmini_loop_ws",
       Queue::Loop,
       std::string("Sets the row strides (in elements) of A and B of the next LOOP_WS.") + gated,
       {{"A_stride", 0, 64, "elements between rows of A in DRAM"}},
       {{"B_stride", 0, 64, "elements between rows of B in DRAM"}}});
  c.push_back(
      {"LOOP_WS_CONFIG_STRIDES_DC",
       kLoopWsConfigStridesDc,
       -1,
       "gemmini_loop_ws",
       Queue::Loop,
       std::string("Sets the row strides (in elements) of D and C of the next LOOP_WS.") + gated,
       {{"D_stride", 0, 64, "elements between rows of D in DRAM (0 repeats one row)"}},
       {{"C_stride", 0, 64, "elements between rows of C in DRAM"}}});
}

// LOOP_CONV_WS and its six configuration commands (Gemmini's current encodings; loops.conv).
// Fields Brickyard does not use are kept in the table (a Gemmini program sets them) and say so.
void loopConvCommands(std::vector<Command>& c) {
  const char* gated = " UNKNOWN_FUNCT without loops.conv.";
  const char* unused = "accepted and not used (pooling comes from CONFIG_ST)";
  auto config = [&](int n, const std::string& what, std::vector<Field> rs1,
                    std::vector<Field> rs2) {
    c.push_back({"LOOP_CONV_WS_CONFIG_" + std::to_string(n), kLoopConvWsConfig1 + n - 1, -1,
                 "gemmini_loop_conv_ws", Queue::LoopConv,
                 "Sets " + what + " of the next LOOP_CONV_WS." + gated, std::move(rs1),
                 std::move(rs2)});
  };
  c.push_back(
      {"LOOP_CONV_WS",
       kLoopConvWs,
       -1,
       "gemmini_loop_conv_ws",
       Queue::LoopConv,
       std::string("Runs the weight-stationary convolution tile configured by the "
                   "LOOP_CONV_WS_CONFIG_* commands, unrolled by the accelerator into "
                   "MVIN/MVIN2/MVIN3/PRELOAD/COMPUTE/MVOUT commands (\"LOOP_CONV_WS\" above).") +
           gated,
       {{"no_bias", 0, 1, "1: no bias is loaded: the computes add onto the accumulator half"},
        {"wrot180", 1, 1,
         "1: the weights rotated by 180 degrees: kernel tap (kr, kc) computes with the weights "
         "stored at tap (krows-1-kr, kcols-1-kc) (training: the input gradient)"},
        {"trans_output_1203", 2, 1,
         "1: the output stored [row][col][image][channel] (pixel (b, y, x) at output + ((y x "
         "out_col_dim + x) x batch_size + b) x out_stride; training: the weight gradient); "
         "unpooled only, else UNSUPPORTED"},
        {"trans_weight_1203", 3, 1,
         "1: the weights stored [in channel][kernel row][kernel col][out channel] (row of tap "
         "(kr, kc), input channel i at weights + ((i x kernel_dim + kr) x kernel_dim + kc) x "
         "weight_stride; training: the input gradient); one lane only, else UNSUPPORTED"},
        {"trans_weight_0132", 4, 1,
         "1: the weights stored [kernel row][kernel col][out channel][in channel] (row of tap "
         "(kr, kc), output channel o at weights + ((kr x kernel_dim + kc) x out_channels + o) x "
         "weight_stride), moved in as stored and read through the transposer (CONFIG_EX's "
         "b_transpose; training: the input gradient); the WS loop on one-lane configs without "
         "TensorDash, else UNSUPPORTED"},
        {"trans_input_3120", 5, 1,
         "1: the input stored [channel][row][col][image] (pixel (b, y, x), channel c at input + "
         "((c x in_row_dim + y) x in_col_dim + x) x batch_size + b; training: the weight "
         "gradient), moved in as stored, DIM images a row, and read through the transposer "
         "(CONFIG_EX's a_transpose): each compute is up to DIM images at one pixel. The loop "
         "sets CONFIG_EX's a_stride and c_stride for its computes and restores them after. The "
         "WS loop on one-lane configs without TensorDash, not with trans_weight_0132, else "
         "UNSUPPORTED"},
        {"dw", 6, 1,
         "Gemmini's depthwise mode: must be 0, UNSUPPORTED (Brickyard's is `depthwise`, bit "
         "20)"},
        {"max_pixels_per_row", 8, 8, "accepted and not used (a performance hint on Gemmini)"},
        {"b_spad_id", 16, 2,
         "0: the weights in this loop's scratchpad half; n = 1, 2: they end at row n x "
         "sp_rows/2, and with `weights` = 0 they are already there (no MVIN2)"},
        {"a_spad_id", 18, 2,
         "0: the input window in this loop's scratchpad half; n = 1, 2: it starts at row "
         "(n-1) x sp_rows/2, and with `input` = 0 it is already there (no input MVIN)"},
        {"depthwise", 20, 1,
         "Brickyard's depthwise mode (docs/isa.md, \"Depthwise mode\"): output channel c sums "
         "input channel c over the taps (kchs must equal pochs, else BAD_SIZE); a tap's weights "
         "are a band of ceil(DIM / lanes) packed rows of diagonal stripes (in_channels not "
         "used). One lane, or OS on TensorDash configs; not with the transposes or "
         "weights_compressed; else UNSUPPORTED"}},
       {{"no_pool", 0, 1,
         "1: C leaves row by row; 0: one pooled MVOUT per (image, channel block), with "
         "CONFIG_ST's pooling"},
        {"downsample", 1, 1, "must be 0, UNSUPPORTED"},
        {"input_dilated", 2, 1,
         "1: the input dilated by 2 (a zero between neighbouring pixels); the window and its "
         "paddings lie over the dilated image (training: the input gradient of a strided "
         "layer)"},
        {"activation", 3, 2,
         "0 none or 1 ReLU (the MVOUTs apply CONFIG_ST's activation); others UNSUPPORTED"},
        {"weights_compressed", 5, 1,
         "Boveda: the weights are a compressed matrix of DIM x DIM blocks (a tap's input "
         "channels padded to whole DIM-row bands with zero rows), one MVIN2 per block: tap t's "
         "band kb, output-channel block ob at weights + ((t x ceil(in_channels / DIM) + kb) x "
         "weight_stride + ob) x 8 (weight_stride in entries). Must equal MVIN channel 1's "
         "compressed state; not with "
         "trans_weight_1203 / _0132 or "
         "vector PEs; else UNSUPPORTED"},
        {"input_compressed", 6, 1,
         "Boveda: the input is a compressed activation tensor, one block per image row and "
         "channel group (in_col_dim pixels x MAX_BLOCK_LEN x DIM x lanes channels, the last "
         "fewer): row y of image b, group g at input + ((b x in_row_dim + y) x in_stride + g) x 8 "
         "(in_stride in entries). The window's real columns must be whole rows; must equal MVIN "
         "channel 0's compressed state; not with input_dilated or trans_input_3120; else "
         "UNSUPPORTED"},
        {"output_compressed", 7, 1,
         "Boveda: the output leaves as a compressed activation tensor of the same blocks (ocols "
         "= out_col_dim pixels a block): row y of image b, group g at output + ((b x out_row_dim "
         "+ y) x out_stride + g) x 8 (out_stride in entries). Unpooled, whole rows; must equal "
         "CONFIG_ST's compressed state; not with trans_output_1203; else UNSUPPORTED"}}});
  config(1, "the tensor shapes",
         {{"batch_size", 0, 16,
           "images of the whole output tensor: its image pitch with trans_output_1203 (else not "
           "used)"},
          {"in_row_dim", 16, 16, "rows of the input image in DRAM"},
          {"in_channels", 32, 16, "input channels (the weight rows of one kernel tap)"},
          {"out_channels", 48, 16,
           "output channels of the whole weight tensor: the rows of a tap with "
           "trans_weight_0132 (else not used: out_stride places the output)"}},
         {{"out_row_dim", 0, 16, "rows of the output image in DRAM"},
          {"pool_out_row_dim", 16, 16, "rows of the pooled output image in DRAM"},
          {"out_col_dim", 32, 16, "columns of the output image in DRAM"},
          {"stride", 48, 8, "convolution stride (rows and columns)"},
          {"padding", 56, 8, "accepted and not used (the tile's paddings are in CONFIG_3)"}});
  config(2, "the kernel size, the pooling and the tile's output bounds",
         {{"pool_padding", 0, 8, unused},
          {"pool_stride", 8, 8, unused},
          {"pool_size", 16, 16, unused},
          {"pool_out_col_dim", 32, 16, "columns of the pooled output image in DRAM"},
          {"kernel_dim", 48, 16, "kernel rows and columns in DRAM (the weight tap pitch)"}},
         {{"pochs", 0, 16, "output channels of the tile"},
          {"pocols", 16, 16, unused},
          {"porows", 32, 16, unused},
          {"batches", 48, 16, "images of the tile"}});
  config(3, "the tile's kernel extent, input channels and input padding",
         {{"lpad", 0, 16, "zero columns left of the tile's input"},
          {"kchs", 16, 16, "input channels of the tile"},
          {"kcols", 32, 16, "kernel columns of the tile"},
          {"krows", 48, 16, "kernel rows of the tile"}},
         {{"in_col_dim", 0, 16, "columns of the input image in DRAM"},
          {"plpad", 16, 8, unused},
          {"dpad", 24, 8, "zero rows below the tile's input"},
          {"upad", 32, 16, "zero rows above the tile's input"},
          {"rpad", 48, 16, "zero columns right of the tile's input"}});
  config(4, "the tile's output size and the DRAM strides",
         {{"kernel_dilation", 0, 10,
           "input pixels between kernel taps (0 and 1: a plain kernel): tap (kr, kc) reads the "
           "window at (y x stride + kr x kernel_dilation, x x stride + kc x kernel_dilation)"},
          {"pdpad", 10, 11, unused},
          {"pupad", 21, 11, unused},
          {"prpad", 32, 16, unused},
          {"orows", 48, 16, "output rows of the tile (before pooling)"}},
         {{"ocols", 0, 16, "output columns of the tile (before pooling)"},
          {"out_stride", 16, 16, "elements between output pixels in DRAM"},
          {"weight_stride", 32, 16, "elements between weight rows in DRAM"},
          {"in_stride", 48, 16, "elements between input pixels in DRAM"}});
  config(5, "the DRAM addresses of the weights and the output",
         {{"weights", 0, 64,
           "DRAM byte address of the tile's first weight (kernel tap and "
           "channels of the tile)"}},
         {{"output", 0, 64,
           "DRAM byte address of the tile's first output pixel (0: the "
           "result stays in the accumulator)"}});
  config(6, "the DRAM addresses of the bias and the input",
         {{"bias", 0, 64, "DRAM byte address of the tile's first bias (acc_t; 0: no bias)"}},
         {{"input", 0, 64, "DRAM byte address of the tile's first real input pixel"}});
}

// LOOP_CONV_OS (Brickyard, not a Gemmini funct): the tile the LOOP_CONV_WS_CONFIG_* commands
// describe, run in the output-stationary dataflow, where TensorDash skips zero products. Its
// operands are LOOP_CONV_WS's, so the command is LOOP_CONV_WS's fields under its own funct.
Command loopConvOsCommand(const std::vector<Command>& c) {
  Command os;
  for (const Command& x : c)
    if (x.funct == kLoopConvWs)
      os = x;
  os.name = "LOOP_CONV_OS";
  os.funct = kLoopConvOs;
  os.gemminiName = "by_loop_conv_os";
  os.summary = "Runs the convolution tile configured by the LOOP_CONV_WS_CONFIG_* commands in the "
               "output-stationary dataflow (one accumulation per output block over every tap "
               "and input channel: TensorDash skips its zero products), unrolled by the "
               "accelerator into MVIN/MVIN2/MVIN3/PRELOAD/COMPUTE/MVOUT commands "
               "(\"LOOP_CONV_OS\" above); the fields are LOOP_CONV_WS's. UNKNOWN_FUNCT without "
               "loops.conv.";
  return os;
}

// The three CONFIG commands (funct 0; rs1[1:0] selects which): CONFIG_EX, CONFIG_LD, CONFIG_ST.
void configCommands(std::vector<Command>& c) {
  c.push_back(
      {"CONFIG_EX",
       kConfig,
       kConfigEx,
       "gemmini_extended_config_ex",
       Queue::Execute,
       "Configures the execute controller: dataflow, activation of results written to "
       "the scratchpad, OS output shift, operand strides.",
       {{"cmd_type", 0, 2, "0 (CONFIG_EX)"},
        {"dataflow", 2, 1, "0 output-stationary, 1 weight-stationary"},
        {"activation", 3, 2, "activation of results written to the scratchpad: 0 none, 1 ReLU"},
        {"set_only_strides", 7, 1, "1: update a_stride and c_stride only"},
        {"a_transpose", 8, 1,
         "A is stored transposed (K x I): one-lane configs without TensorDash; see "
         "\"Transposes\""},
        {"b_transpose", 9, 1,
         "B is stored transposed (J x K): the WS weights or the OS COMPUTE's B; see "
         "\"Transposes\""},
        {"td_off", 10, 1,
         "TensorDash: 1 runs OS computes as dense beats (one reduction step per cycle), 0 "
         "skips zero operands; results are the same either way; ignored without TensorDash"},
        {"td_side", 11, 1,
         "TensorDash: the scheduled operand, whose zeros are skipped: 0 A, 1 B; results are "
         "the same either way; UNSUPPORTED without TensorDash"},
        {"a_stride", 16, 16, "scratchpad rows between consecutive A rows (0 means 1)"},
        {"acc_scale", 32, 32, "accepted and ignored (Gemmini compatibility)"}},
       {{"in_shift", 0, 32, "OS: rounding right shift of results leaving the array"},
        {"relu6_shift", 32, 16, "accepted and ignored (no ReLU6)"},
        {"c_stride", 48, 16, "rows between consecutive C rows written (0 means 1)"}}});
  c.push_back({"CONFIG_LD",
               kConfig,
               kConfigLd,
               "gemmini_extended3_config_ld",
               Queue::Load,
               "Configures one of the three mvin channels (MVIN, MVIN2, MVIN3).",
               {{"cmd_type", 0, 2, "1 (CONFIG_LD)"},
                {"shrink", 2, 1, "mvin to the accumulator reads elem_t values (sign-extended)"},
                {"state_id", 3, 2, "channel: 0 MVIN, 1 MVIN2, 2 MVIN3"},
                {"compressed", 5, 1,
                 "Boveda: the channel's MVINs read compressed blocks (rs2 is then the stream "
                 "base); UNSUPPORTED without Boveda"},
                {"pixel_repeats", 8, 8, "must be 0 or 1 (no pixel repeater)"},
                {"block_stride", 16, 16, "local rows between column blocks (0 means DIM)"},
                {"scale", 32, 32, "mvin scale: must be 0 or 1.0f (no mvin scaling)"}},
               {{"stride", 0, 64,
                 "DRAM bytes between consecutive rows (0 repeats one row); compressed: the "
                 "stream base, byte address of container 0"}}});
  c.push_back(
      {"CONFIG_ST",
       kConfig,
       kConfigSt,
       "gemmini_extended_config_st",
       Queue::Store,
       "Configures mvout: DRAM stride, activation and scale of accumulator reads, "
       "max-pooling.",
       {{"cmd_type", 0, 2, "2 (CONFIG_ST)"},
        {"activation", 2, 2, "activation on accumulator reads: 0 none, 1 ReLU"},
        {"pool_stride", 4, 2, "max-pool stride; 0 disables pooling"},
        {"pool_size", 6, 2, "max-pool window (pool_size x pool_size)"},
        {"upad", 8, 2, "pooling: zero rows above the image"},
        {"lpad", 10, 2, "pooling: zero columns left of the image"},
        {"compressed", 12, 1,
         "Boveda: MVOUTs write compressed blocks (rs2 stride is then the stream base; the next "
         "block starts at container 0); UNSUPPORTED without Boveda"},
        {"pool_out_dim", 24, 8, "pooling: pooled image width in DRAM (pixels per row)"},
        {"porows", 32, 8, "pooling: pooled rows"},
        {"pocols", 40, 8, "pooling: pooled columns"},
        {"orows", 48, 8, "pooling: rows of the image in the local memory"},
        {"ocols", 56, 8, "pooling: columns of the image in the local memory"}},
       {{"stride", 0, 32,
         "DRAM bytes between consecutive rows / pooled pixels; compressed: the stream base"},
        {"acc_scale", 32, 32, "float scale of accumulator reads; 0xffffffff keeps the old"}}});
}

std::vector<Command> buildCommands() {
  std::vector<Command> c;
  configCommands(c);
  c.push_back({"MVIN2",
               kMvin2,
               -1,
               "gemmini_extended_mvin2",
               Queue::Load,
               "Moves a block from DRAM into the scratchpad or accumulator (channel 1).",
               {{"dram_addr", 0, 64, kMvinDramDoc}},
               localOperand("destination")});
  c.push_back({"MVIN",
               kMvin,
               -1,
               "gemmini_extended_mvin",
               Queue::Load,
               "Moves a block from DRAM into the scratchpad or accumulator (channel 0).",
               {{"dram_addr", 0, 64, kMvinDramDoc}},
               localOperand("destination")});
  c.push_back({"MVOUT",
               kMvout,
               -1,
               "gemmini_extended_mvout",
               Queue::Store,
               "Moves a block from the scratchpad or accumulator to DRAM (with scale, "
               "activation and optional max-pooling for accumulator reads).",
               {{"dram_addr", 0, 64,
                 "DRAM byte address of the first row; compressed: of the block's pointer-table "
                 "entry"}},
               localOperand("source")});
  c.push_back({"COMPUTE_PRELOADED", kComputePreloaded, -1, "gemmini_extended_compute_preloaded",
               Queue::Execute,
               "Computes with the operands of the preceding PRELOAD, switching to its "
               "stationary data (WS: its weights; OS: a new accumulation from its D).",
               localOperand("A (rows: M, cols: K)"),
               localOperand("WS: bias D; OS: B (rows: K, cols: N)")});
  c.push_back({"COMPUTE_ACCUMULATED", kComputeAccumulated, -1,
               "gemmini_extended_compute_accumulated", Queue::Execute,
               "Computes keeping the stationary data (WS: the same weights; OS: keeps "
               "accumulating).",
               localOperand("A"), localOperand("WS: bias D; OS: B")});
  c.push_back({"PRELOAD", kPreload, -1, "gemmini_extended_preload", Queue::Execute,
               "Names the stationary operand and the output of the next COMPUTE.",
               localOperand("WS: weights B; OS: initial accumulators D"),
               localOperand("output C")});
  c.push_back({"FLUSH",
               kFlush,
               -1,
               "gemmini_flush",
               Queue::Immediate,
               "Flushes the TLB: Brickyard uses physical addresses, so there is none; with Boveda "
               "it invalidates the loader's pointer lines (docs/boveda.md).",
               {{"skip", 0, 1, "ignored"}},
               {}});
  loopWsCommands(c);
  c.push_back({"MVIN3",
               kMvin3,
               -1,
               "gemmini_extended_mvin3",
               Queue::Load,
               "Moves a block from DRAM into the scratchpad or accumulator (channel 2).",
               {{"dram_addr", 0, 64, kMvinDramDoc}},
               localOperand("destination")});
  loopConvCommands(c);
  c.push_back(
      {"DECOMPRESS",
       kDecompress,
       -1,
       "brickyard_decompress",
       Queue::Load,
       "Boveda on-chip form: decodes one compressed block held in scratchpad rows into raw "
       "rows of the scratchpad (no DRAM traffic); UNKNOWN_FUNCT without "
       "compression.boveda.on_chip.",
       {{"src_addr", 0, 32,
         "scratchpad local address of the block's first container row (see Local addresses)"},
        {"containers", 32, 16, "containers of the block (1 or more)"}},
       localOperand("destination (as MVIN channel 0: its block_stride)")});
  c.push_back(loopConvOsCommand(c));
  c.push_back(
      {"CONFIG_TABLE",
       kConfigTable,
       -1,
       "brickyard_config_table",
       Queue::Immediate,
       "Writes 8 entries of the mvout's function table and sets whether MVOUTs from the "
       "accumulator apply it (activations.table; UNKNOWN_FUNCT without). An applied table maps "
       "each output element x (after scaling, saturation, activation and pooling) to entry "
       "x + 128. It waits until every earlier MVOUT has left the store path, so it acts "
       "in program order (docs/isa.md, \"Function table\").",
       {{"chunk", 0, 5, "with write: entries 8*chunk .. 8*chunk+7"},
        {"write", 8, 1, "write rs2's eight entries"},
        {"enable", 9, 1,
         "MVOUTs from the accumulator apply the table from now on (0: they do not)"}},
       {{"entries", 0, 64,
         "entry 8*chunk+k in bits 8k+7:8k: the output for the value 8*chunk+k-128"}}});
  c.push_back({"COUNTER_OP",
               kCounterOp,
               -1,
               "gemmini_counter_access",
               Queue::Immediate,
               "Configures, resets, snapshots or reads the 8 event counters; returns the "
               "selected counter in rd.",
               {{"reset", 0, 1, "reset all counters"},
                {"snapshot_reset", 1, 1, "leave snapshot mode"},
                {"snapshot", 2, 1, "copy all counters to the snapshot; reads return it"},
                {"configure", 3, 1, "set the event of counter `index` (and clear it)"},
                {"index", 4, 3, "counter 0..7"},
                {"event", 12, 6, "event id (see Counter events)"},
                {"external", 31, 1, "the event is an external value counter"}},
               {},
               true});
  return c;
}

std::vector<ErrorCode> buildErrors() {
  return {
      {0, "NONE", "no error"},
      {1, "UNKNOWN_FUNCT",
       "funct is not a command of this hardware (LOOP_WS without loops.ws, LOOP_CONV_WS "
       "and LOOP_CONV_OS without loops.conv, DECOMPRESS without the Boveda on-chip form, "
       "CONFIG_TABLE without activations.table)"},
      {2, "BAD_CONFIG_TYPE", "CONFIG with rs1[1:0] = 3"},
      {3, "UNSUPPORTED",
       "a feature this hardware does not have: a transpose it cannot take, ReLU6, pixel "
       "repeats, mvin scaling, a dataflow not built"},
      {4, "LOCAL_RANGE", "the rows touched lie outside the scratchpad or accumulator"},
      {5, "BAD_LOCAL_ADDR",
       "accumulate/full flags on a scratchpad address, or GARBAGE_ADDR "
       "where a real address is required"},
      {6, "BAD_SIZE", "zero rows or columns, or more than the command allows"},
      {7, "BAD_SHIFT", "CONFIG_EX in_shift of acc_width or more"},
      {8, "UNPAIRED",
       "COMPUTE without a PRELOAD before it, or a PRELOAD not followed by a COMPUTE"},
      {9, "DMA_ERROR", "an AXI error response, or a DRAM address beyond 32 bits"},
      {10, "BAD_POOL",
       "inconsistent pooling parameters (e.g. pooling with more than DIM columns "
       "or with a full-width read)"},
  };
}

std::vector<CounterEvent> buildEvents() {
  return {
      {0, "DISABLE", "counts nothing", false},
      {1, "MAIN_LD_CYCLES", "cycles only the load controller is busy", false},
      {2, "MAIN_ST_CYCLES", "cycles only the store controller is busy", false},
      {3, "MAIN_EX_CYCLES", "cycles only the execute controller is busy", false},
      {4, "MAIN_LD_ST_CYCLES", "cycles load and store (not execute) are busy", false},
      {5, "MAIN_LD_EX_CYCLES", "cycles load and execute (not store) are busy", false},
      {6, "MAIN_ST_EX_CYCLES", "cycles store and execute (not load) are busy", false},
      {7, "MAIN_LD_ST_EX_CYCLES", "cycles all three are busy", false},
      {8, "LOAD_DMA_WAIT_CYCLE", "load controller waits for the DMA", false},
      {9, "LOAD_ACTIVE_CYCLE", "load controller busy", false},
      {11, "STORE_DMA_WAIT_CYCLE", "store controller waits for the DMA", false},
      {12, "STORE_ACTIVE_CYCLE", "store controller busy", false},
      {13, "STORE_POOLING_CYCLE", "store controller busy with a pooling mvout", false},
      {18, "RDMA_ACTIVE_CYCLE", "DMA reads outstanding", false},
      {21, "WDMA_ACTIVE_CYCLE", "DMA writes outstanding", false},
      {24, "EXE_ACTIVE_CYCLE", "a valid beat enters the array", false},
      {29, "SCRATCHPAD_WAIT_CYCLE", "execute waits for an SRAM bank", false},
      {41, "ROB_FULL_CYCLES", "the reservation station is full", false},
      {42, "ROB_ACTIVE_CYCLES", "the reservation station holds commands", false},
      {1, "ROB_LD_COUNT", "load commands in the reservation station", true},
      {2, "ROB_ST_COUNT", "store commands in the reservation station", true},
      {3, "ROB_EX_COUNT", "execute commands in the reservation station", true},
      {4, "RDMA_BYTES_REC", "bytes read by the DMA", true},
      {5, "WDMA_BYTES_SENT", "bytes written by the DMA", true},
  };
}

/// "0x42594431 (\"BYD1\")": kIdValue in hex and as its four ASCII characters, high byte first.
std::string idDoc() {
  char hex[11];
  std::snprintf(hex, sizeof hex, "0x%08X", kIdValue);
  std::string ascii;
  for (int shift = 24; shift >= 0; shift -= 8)
    ascii += static_cast<char>((kIdValue >> shift) & 0xff);
  return std::string(hex) + " (\"" + ascii + "\")";
}

std::vector<Register> buildRegisters() {
  std::vector<Register> r = {
      {0x000, "ID", "RO", idDoc()},
      {0x004, "VERSION", "RO", "hardware interface version (" + std::to_string(kVersion) + ")"},
      {0x008, "STATUS", "RO",
       "bit 0 busy, bit 1 command queue full, bit 2 error pending, "
       "bit 3 response valid"},
      {0x00c, "ERROR", "W1C",
       "first error since cleared: bits 7:0 code, bits 14:8 funct; "
       "writing 1s to bits 7:0 clears it"},
      {0x010, "ERROR_COUNT", "RO", "commands rejected since reset"},
      {0x014, "IRQ_ENABLE", "RW",
       "bit 0 interrupt when the accelerator becomes idle, bit 1 on "
       "an error"},
      {0x018, "IRQ_STATUS", "W1C",
       "bit 0 became idle, bit 1 error; irq_o = |(IRQ_STATUS & "
       "IRQ_ENABLE)"},
      {0x020, "CMD_FUNCT", "RW", "funct7 of the command to push"},
      {0x024, "CMD_RS1_LO", "RW", "rs1[31:0]"},
      {0x028, "CMD_RS1_HI", "RW", "rs1[63:32]"},
      {0x02c, "CMD_RS2_LO", "RW", "rs2[31:0]"},
      {0x030, "CMD_RS2_HI", "RW", "rs2[63:32]"},
      {0x034, "CMD_PUSH", "WO",
       "any write pushes {CMD_FUNCT, rs1, rs2} into the command "
       "queue; the write response waits while the queue is full"},
      {0x038, "RESP_LO", "RO", "low word of the last COUNTER_OP result"},
      {0x03c, "RESP_HI", "RO",
       "high word of the last COUNTER_OP result; reading it clears "
       "STATUS.response valid"},
      {0x040, "HW_DIM", "RO", "DIM"},
      {0x044, "HW_LANES", "RO", "MAC lanes per PE"},
      {0x048, "HW_SP_ROWS", "RO", "scratchpad rows"},
      {0x04c, "HW_ACC_ROWS", "RO", "accumulator rows"},
      {0x050, "HW_FEATURES", "RO",
       "bit 0 WS, bit 1 OS, bit 2 TensorDash, bit 3 Boveda, bit 4 LOOP_WS, bit 5 LOOP_CONV_WS, "
       "bit 6 LOOP_CONV_OS, bit 7 TD_SCHEDULE_B (CONFIG_EX td_side = 1), bit 8 TRANSPOSER "
       "(CONFIG_EX's transposes: see \"Transposes\"), bit 9 TABLE (CONFIG_TABLE: the mvout's "
       "function table)"},
      {0x0fc, "COUNTERS_RESET", "WO", "writing 1 clears the 64-bit counters below"},
  };
  const char* counters[][2] = {
      {"CYCLES", "clock cycles since reset"},
      {"BUSY_CYCLES", "cycles with any command in flight"},
      {"MACS", "multiply-accumulate slots issued to the array: DIM x DIM x lanes per dense "
               "compute beat; with TensorDash, the lanes that got an operand pair"},
      {"MACS_SKIPPED", "TensorDash: MAC slots the dense array would have spent on the reduction "
                       "steps that left the window, minus the slots issued (zero products "
                       "skipped; exact once the pass is over)"},
      {"EXEC_ACTIVE_CYCLES", "cycles a valid beat enters the array"},
      {"LOAD_ACTIVE_CYCLES", "cycles the load controller is busy"},
      {"STORE_ACTIVE_CYCLES", "cycles the store controller is busy"},
      {"DMA_READ_BYTES", "bytes read over AXI"},
      {"DMA_WRITE_BYTES", "bytes written over AXI"},
      {"STALL_DEPENDENCY_CYCLES", "cycles a queue head waits for an older command (hazard)"},
      {"STALL_BANK_CYCLES", "cycles the execute controller waits for an SRAM bank"},
      {"STALL_DMA_CYCLES", "cycles the load or store controller waits for the DMA"},
      {"COMMANDS", "commands completed"},
      {"COMPRESSED_BYTES", "bytes moved in compressed form (Boveda)"},
      {"WINDOW_STALLS", "TensorDash: beats whose window was held back by another scheduler "
                        "group (lockstep)"},
      {"COMPUTE_BEATS", "compute beats entering the array (dense or TensorDash): MACS / "
                        "(COMPUTE_BEATS x DIM x DIM x lanes) is the array's utilization while "
                        "it computes"},
      {"FEED_STALLS", "TensorDash: cycles a compute beat waits because its window has no step "
                      "yet (the operand feeder is behind)"},
      {"SHORT_BEATS", "TensorDash: compute beats issued while the window lacked steps of its "
                      "pass that the operand feeder had not brought yet (such a beat may retire "
                      "fewer steps than the C++ model's full window)"},
      // Exclusive stall causes: with BUSY_CYCLES and EXEC_ACTIVE_CYCLES they split the busy
      // cycles without overlap (docs/evaluation.md, "Where the cycles go").
      {"WAIT_DMA_CYCLES", "busy cycles with no beat entering the array while the load or store "
                          "controller waits for the DMA"},
      {"WAIT_DEPENDENCY_CYCLES", "busy cycles with no beat entering the array and no DMA wait "
                                 "while a queue head waits for an older command (hazard)"},
      {"SP_READS", "scratchpad SRAM word reads (granted read requests of every client)"},
      {"SP_WRITES", "scratchpad SRAM word writes (granted write requests)"},
      {"ACC_READS", "accumulator SRAM row reads: granted read requests plus the read of every "
                    "read-modify-write (each execute write-back, accumulating loads)"},
      {"ACC_WRITES", "accumulator SRAM row writes (granted write requests)"},
  };
  uint32_t offset = kPerfRegisterBase;
  for (const auto& c : counters) {
    r.push_back(
        {offset, std::string(c[0]) + "_LO", "RO", std::string(c[1]) + "; reading LO latches HI"});
    r.push_back({offset + 4, std::string(c[0]) + "_HI", "RO", "high word latched by the LO read"});
    offset += 8;
  }
  return r;
}

std::vector<RegisterField> buildRegisterFields() {
  // The bit positions the register descriptions above state in prose.
  return {
      {"STATUS", "BUSY", 0, 1},
      {"STATUS", "QUEUE_FULL", 1, 1},
      {"STATUS", "ERROR_PENDING", 2, 1},
      {"STATUS", "RESP_VALID", 3, 1},
      {"ERROR", "CODE", 0, 8},
      {"ERROR", "FUNCT", 8, 7},
      {"IRQ_ENABLE", "IDLE", 0, 1},
      {"IRQ_ENABLE", "ERROR", 1, 1},
      {"IRQ_STATUS", "IDLE", 0, 1},
      {"IRQ_STATUS", "ERROR", 1, 1},
      {"HW_FEATURES", "WS", 0, 1},
      {"HW_FEATURES", "OS", 1, 1},
      {"HW_FEATURES", "TENSORDASH", 2, 1},
      {"HW_FEATURES", "BOVEDA", 3, 1},
      {"HW_FEATURES", "LOOP_WS", 4, 1},
      {"HW_FEATURES", "LOOP_CONV_WS", 5, 1},
      {"HW_FEATURES", "LOOP_CONV_OS", 6, 1},
      {"HW_FEATURES", "TD_SCHEDULE_B", 7, 1},
      {"HW_FEATURES", "TRANSPOSER", 8, 1},
      {"HW_FEATURES", "TABLE", 9, 1},
  };
}

const Field& findField(const std::vector<Field>& fields, const std::string& name,
                       const std::string& cmd) {
  for (const Field& f : fields)
    if (f.name == name)
      return f;
  throw std::logic_error("ISA: command " + cmd + " has no field " + name);
}

std::string hex(uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
  return buf;
}

std::string upper(std::string s) {
  for (char& ch : s)
    ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
  return s;
}

} // namespace

const Field& Command::rs1Field(const std::string& f) const {
  return findField(rs1, f, name);
}
const Field& Command::rs2Field(const std::string& f) const {
  return findField(rs2, f, name);
}

const std::vector<Command>& commands() {
  static const std::vector<Command> table = buildCommands();
  return table;
}

const Command& command(const std::string& name) {
  for (const Command& c : commands())
    if (c.name == name)
      return c;
  throw std::logic_error("ISA: no command " + name);
}

const std::vector<ErrorCode>& errorCodes() {
  static const std::vector<ErrorCode> table = buildErrors();
  return table;
}

int errorCode(const std::string& name) {
  for (const ErrorCode& e : errorCodes())
    if (e.name == name)
      return e.code;
  throw std::logic_error("ISA: no error code " + name);
}

const std::vector<CounterEvent>& counterEvents() {
  static const std::vector<CounterEvent> table = buildEvents();
  return table;
}

const std::vector<Register>& registers() {
  static const std::vector<Register> table = buildRegisters();
  return table;
}

const std::vector<RegisterField>& registerFields() {
  static const std::vector<RegisterField> table = buildRegisterFields();
  return table;
}

uint32_t registerOffset(const std::string& name) {
  for (const Register& r : registers())
    if (r.name == name)
      return r.offset;
  throw std::logic_error("ISA: no register " + name);
}

std::string referenceMarkdown() {
  std::ostringstream os;
  os << "### Commands\n\n| funct | command | queue | gemmini.h | summary "
        "|\n|---|---|---|---|---|\n";
  auto queueName = [](Queue q) {
    switch (q) {
    case Queue::Load:
      return "load";
    case Queue::Store:
      return "store";
    case Queue::Execute:
      return "execute";
    case Queue::Immediate:
      return "immediate";
    case Queue::Loop:
      return "loop";
    case Queue::LoopConv:
      return "conv loop";
    }
    return "";
  };
  for (const Command& c : commands())
    os << "| " << c.funct
       << (c.configType >= 0 ? " (rs1[1:0] = " + std::to_string(c.configType) + ")" : "") << " | `"
       << c.name << "` | " << queueName(c.queue) << " | `" << c.gemminiName << "` | " << c.summary
       << " |\n";
  for (const Command& c : commands()) {
    os << "\n#### `" << c.name
       << "` operands\n\n| operand | bits | field | meaning |\n|---|---|---|---|\n";
    auto rows = [&](const char* reg, const std::vector<Field>& fields) {
      for (const Field& f : fields)
        os << "| " << reg << " | " << f.lsb + f.width - 1 << ":" << f.lsb << " | `" << f.name
           << "` | " << f.doc << " |\n";
    };
    rows("rs1", c.rs1);
    rows("rs2", c.rs2);
    if (c.writesRd)
      os << "| rd | 63:0 | `value` | the selected counter (zero-extended) |\n";
  }
  os << "\n### Error codes\n\n| code | name | cause |\n|---|---|---|\n";
  for (const ErrorCode& e : errorCodes())
    os << "| " << e.code << " | `" << e.name << "` | " << e.doc << " |\n";
  os << "\n### Counter events\n\n| id | kind | name | counts |\n|---|---|---|---|\n";
  for (const CounterEvent& e : counterEvents())
    os << "| " << e.id << " | " << (e.external ? "external (rs1[31] = 1)" : "event") << " | `"
       << e.name << "` | " << e.doc << " |\n";
  os << "\n### Control registers (AXI4-Lite, 32-bit)\n\n| offset | name | access | meaning "
        "|\n|---|---|---|---|\n";
  for (const Register& r : registers())
    os << "| " << hex(r.offset) << " | `" << r.name << "` | " << r.access << " | " << r.doc
       << " |\n";
  return os.str();
}

std::string cHeader(const std::string& generator) {
  std::ostringstream os;
  os << "// Generated by " << generator
     << " from the ISA table (spec/hw/src/isa.cpp). Do not edit.\n"
        "// Brickyard's command encodings (Gemmini-compatible), control registers, error codes "
        "and\n"
        "// counter events. See docs/isa.md.\n"
        "#ifndef BRICKYARD_ISA_H\n#define BRICKYARD_ISA_H\n\n";
  os << "/* Commands: RoCC funct7 values. */\n";
  for (const Command& c : commands()) {
    if (c.configType >= 0)
      os << "#define BY_CONFIG_TYPE_" << c.name.substr(7) << " " << c.configType << "\n";
    else
      os << "#define BY_FUNCT_" << c.name << " " << c.funct << "\n";
  }
  os << "#define BY_FUNCT_CONFIG " << kConfig << "\n";
  // One list for the names the driver prints (by_funct_name): X(NAME, funct) per command.
  os << "#define BY_FOR_EACH_FUNCT(X) X(CONFIG, " << kConfig << ")";
  for (const Command& c : commands())
    if (c.configType < 0)
      os << " X(" << c.name << ", " << c.funct << ")";
  os << "\n";
  os << "\n/* Operand fields: BY_<COMMAND>_<RS>_<FIELD>_SHIFT and _MASK (mask before shifting). "
        "*/\n";
  for (const Command& c : commands()) {
    auto fields = [&](const char* reg, const std::vector<Field>& list) {
      for (const Field& f : list) {
        const std::string base = "BY_" + c.name + "_" + reg + "_" + upper(f.name);
        os << "#define " << base << "_SHIFT " << f.lsb << "\n";
        os << "#define " << base << "_MASK " << hex(f.mask()) << "ULL\n";
      }
    };
    fields("RS1", c.rs1);
    fields("RS2", c.rs2);
  }
  os << "\n/* Local addresses. */\n"
     << "#define BY_LOCAL_ACC_BIT " << kLocalAccBit << "\n"
     << "#define BY_LOCAL_ACCUMULATE_BIT " << kLocalAccumulateBit << "\n"
     << "#define BY_LOCAL_FULL_BIT " << kLocalFullBit << "\n"
     << "#define BY_LOCAL_ROW_MASK " << hex((1ull << kLocalRowBits) - 1) << "u\n"
     << "#define BY_GARBAGE_ADDR " << hex(kGarbageAddr) << "u\n"
     << "#define BY_ACC_SCALE_KEEP " << hex(kAccScaleKeep) << "u\n"
     << "#define BY_ACT_NONE " << kActNone << "\n#define BY_ACT_RELU " << kActRelu << "\n"
     << "#define BY_DATAFLOW_OS " << kDataflowOS << "\n#define BY_DATAFLOW_WS " << kDataflowWS
     << "\n";
  os << "\n/* Control registers (byte offsets from the accelerator's base address). */\n";
  for (const Register& r : registers())
    os << "#define BY_REG_" << r.name << " " << hex(r.offset) << "u\n";
  os << "\n/* Register bit fields: BY_REG_<REGISTER>_<FIELD>_SHIFT and _MASK (mask before "
        "shifting). */\n";
  for (const RegisterField& f : registerFields()) {
    const std::string base = "BY_REG_" + f.reg + "_" + f.name;
    os << "#define " << base << "_SHIFT " << f.lsb << "\n";
    os << "#define " << base << "_MASK " << hex((1ull << f.width) - 1) << "u\n";
  }
  os << "\n/* Error codes (ERROR register bits 7:0). */\n";
  for (const ErrorCode& e : errorCodes())
    os << "#define BY_ERROR_" << e.name << " " << e.code << "\n";
  // X(NAME, "what it means") per code, for the messages the driver prints (by_error_doc).
  os << "#define BY_FOR_EACH_ERROR(X)";
  for (const ErrorCode& e : errorCodes()) {
    if (e.doc.find_first_of("\"\\") != std::string::npos)
      throw std::logic_error("ISA: error " + e.name + "'s doc must not need C escapes");
    os << " \\\n  X(" << e.name << ", \"" << e.doc << "\")";
  }
  os << "\n";
  os << "\n/* COUNTER_OP events; external ones need rs1[31] = 1. */\n";
  for (const CounterEvent& e : counterEvents())
    os << "#define BY_EVENT_" << e.name << " " << e.id << (e.external ? " /* external */" : "")
       << "\n";
  os << "#define BY_NUM_COUNTERS " << kNumCounters << "\n";
  os << "\n#endif /* BRICKYARD_ISA_H */\n";
  return os.str();
}

} // namespace by::hw::isa
