// accScale in hardware: the integer is converted to IEEE single precision (round to nearest
// even), multiplied by the scale (exact 48-bit significand product, rounded to nearest even),
// and the product rounded half to even to an integer and saturated. Special cases follow
// docs/arithmetic.md: NaN products give 0, infinities saturate, zero and subnormal scales give
// 0 (exact: every such product is below 1/2). Gemmini's ACC_SCALE computes the same in C.
#include "hw/generators.h"

namespace by::hw {

using vlog::Type;

vlog::Module AccScaleGenerator::build() const {
  const int w = accWidth_;
  vlog::Module m(names::kAccScale,
                 "Accumulator scaling (docs/arithmetic.md, accScale): result = saturate(round("
                 "float(acc) * scale)) with IEEE single precision and round-half-to-even at "
                 "every step. Combinational; the structure is specialised for AccWidth = " +
                     std::to_string(w) + ".");
  m.param("AccWidth", std::to_string(w), "bits of the signed accumulator value");
  m.input("acc_i", Type::bits("AccWidth"), "signed accumulator value");
  m.input("scale_i", Type::bits(32), "IEEE 754 single-precision scale");
  m.output("result_o", Type::bits("AccWidth"), "signed, saturated to AccWidth");

  vlog::Body& b = m.body();
  b.localParam("LzWidth", "$clog2(AccWidth) + 1");
  b.localParam("WideWidth", "AccWidth + 24", "significand shifted left by up to AccWidth-1");
  b.blank();
  b.comment("1. Integer to float: magnitude, leading zeros, 24-bit significand (rounded).");
  b.logic("acc_neg", Type::bit());
  b.logic("acc_mag", Type::bits("AccWidth"), "|acc|; the most negative value fits unsigned");
  b.logic("lead_zeros", Type::bits("LzWidth"));
  b.logic("acc_norm", Type::bits("AccWidth"), "acc_mag shifted so that its top bit is set");
  b.logic("int_sig", Type::bits(24), "significand, 1.23 format");
  b.logic("int_exp", Type::sbits(11), "unbiased exponent of float(acc)");
  b.assign("acc_neg", "acc_i[AccWidth-1]");
  b.assign("acc_mag", "acc_neg ? (~acc_i + AccWidth'(1)) : acc_i");
  b.comb().line("lead_zeros = LzWidth'(AccWidth);").forLoop("i", "AccWidth", [](vlog::Stmts& s) {
    s.ifElse("acc_mag[i]", [](vlog::Stmts& t) { t.line("lead_zeros = LzWidth'(AccWidth-1-i);"); });
  });
  b.assign("acc_norm", "acc_mag << lead_zeros");
  if (w <= 24) {
    b.comment("AccWidth <= 24: every integer is exact in single precision.");
    b.assign("int_sig", "{acc_norm, " + std::to_string(24 - w) + "'d0}");
    b.assign("int_exp", "11'(AccWidth-1) - 11'(lead_zeros)");
  } else {
    b.logic("int_guard", Type::bit(), "first bit below the significand");
    b.logic("int_sticky", Type::bit(), "any bit below the guard bit");
    b.logic("int_up", Type::bit(), "round the significand up (nearest, ties to even)");
    b.logic("int_round", Type::bits(25), "significand after rounding, with carry");
    b.assign("int_guard", "acc_norm[AccWidth-25]");
    b.assign("int_sticky", "|acc_norm[AccWidth-26:0]");
    b.assign("int_up", "int_guard & (int_sticky | acc_norm[AccWidth-24])");
    b.assign("int_round", "{1'b0, acc_norm[AccWidth-1 -: 24]} + 25'(int_up)");
    b.assign("int_sig", "int_round[24] ? 24'h800000 : int_round[23:0]");
    b.assign("int_exp", "11'(AccWidth-1) - 11'(lead_zeros) + 11'(int_round[24])");
  }
  b.blank();

  b.comment("2. Float multiply: 24x24-bit significand product, normalised and rounded.");
  b.logic("scale_exp", Type::bits(8));
  b.logic("scale_nan", Type::bit());
  b.logic("scale_inf", Type::bit());
  b.logic("scale_zero", Type::bit(), "zero or subnormal: the product rounds to 0");
  b.logic("prod", Type::bits(48));
  b.logic("prod_top", Type::bit(), "prod >= 2^47");
  b.logic("prod_sig", Type::bits(24));
  b.logic("prod_guard", Type::bit());
  b.logic("prod_sticky", Type::bit());
  b.logic("prod_up", Type::bit());
  b.logic("prod_round", Type::bits(25));
  b.logic("y_sig", Type::bits(24), "significand of the rounded product");
  b.logic("y_exp", Type::sbits(11), "unbiased exponent of the rounded product");
  b.logic("y_neg", Type::bit());
  b.assign("scale_exp", "scale_i[30:23]");
  b.assign("scale_nan", "scale_exp == 8'hff && scale_i[22:0] != 23'd0");
  b.assign("scale_inf", "scale_exp == 8'hff && scale_i[22:0] == 23'd0");
  b.assign("scale_zero", "scale_exp == 8'd0");
  b.assign("prod", "48'(int_sig) * 48'({1'b1, scale_i[22:0]})");
  b.assign("prod_top", "prod[47]");
  b.assign("prod_sig", "prod_top ? prod[47:24] : prod[46:23]");
  b.assign("prod_guard", "prod_top ? prod[23] : prod[22]");
  b.assign("prod_sticky", "prod_top ? (|prod[22:0]) : (|prod[21:0])");
  b.assign("prod_up", "prod_guard & (prod_sticky | prod_sig[0])");
  b.assign("prod_round", "{1'b0, prod_sig} + 25'(prod_up)");
  b.assign("y_sig", "prod_round[24] ? 24'h800000 : prod_round[23:0]");
  b.assign("y_exp", "int_exp + (11'(scale_exp) - 11'sd127) + 11'(prod_top) + 11'(prod_round[24])");
  b.assign("y_neg", "acc_neg ^ scale_i[31]");
  b.blank();

  b.comment("3. Float to integer, rounding half to even: y = y_sig * 2^(y_exp-23). With "
            "u = y_exp+1 in [0, AccWidth-1], wide = y_sig << u holds y * 2^24: its top "
            "AccWidth bits are the integer part, bit 23 the half, bits 22:0 the rest.");
  b.logic("saturate", Type::bit(), "|y| >= 2^(AccWidth-1)");
  b.logic("to_zero", Type::bit(), "|y| < 1/2, or NaN, or a zero operand");
  b.logic("shift_u", Type::bits("LzWidth"));
  b.logic("wide", Type::bits("WideWidth"));
  b.logic("mag_trunc", Type::bits("AccWidth"));
  b.logic("mag_round", Type::bits("AccWidth"));
  b.logic("round_half", Type::bit());
  b.logic("round_rest", Type::bit());
  b.logic("round_up", Type::bit());
  b.logic("result_pos", Type::bits("AccWidth"), "positive result, saturated");
  b.logic("result_neg", Type::bits("AccWidth"), "negative result: fits, |y| <= 2^(AccWidth-1)");
  b.logic("sat_value", Type::bits("AccWidth"), "most positive or most negative AccWidth value");
  b.assign("saturate", "scale_inf || y_exp >= $signed(11'(AccWidth-1))");
  b.assign("to_zero", "scale_nan || scale_zero || acc_mag == '0 || y_exp < -11'sd1");
  b.assign("shift_u", "LzWidth'(y_exp + 11'sd1)");
  b.assign("wide", "WideWidth'(y_sig) << shift_u");
  b.assign("mag_trunc", "wide[WideWidth-1:24]");
  b.assign("round_half", "wide[23]");
  b.assign("round_rest", "|wide[22:0]");
  b.assign("round_up", "round_half & (round_rest | mag_trunc[0])");
  b.assign("mag_round", "mag_trunc + AccWidth'(round_up)");
  b.assign("sat_value", "y_neg ? {1'b1, {(AccWidth-1){1'b0}}} : {1'b0, {(AccWidth-1){1'b1}}}");
  b.comment("mag_round <= 2^(AccWidth-1): negating it always fits; a positive 2^(AccWidth-1) "
            "saturates.");
  b.assign("result_pos", "mag_round[AccWidth-1] ? sat_value : mag_round");
  b.assign("result_neg", "~mag_round + AccWidth'(1)");
  b.assign("result_o", "to_zero ? '0 : saturate ? sat_value : y_neg ? result_neg : result_pos");
  return m;
}

} // namespace by::hw
