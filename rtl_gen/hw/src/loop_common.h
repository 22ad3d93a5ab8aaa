// What the loop unrollers (by_loop_ws, by_loop_conv_ws) share: both sit in the command stream
// in front of the decoder, pass the commands at their input through while idle, and issue a
// running loop's commands through one output register.
#pragma once

#include "state_regs.h"
#include "vlog/ir.h"

#include <string>

namespace by::hw::loops {

/// Parameters FunctBits, XBits, ErrBits, clock and reset, the command input (host_*, from
/// `source`; with `bstrideIn` its block stride host_bstride_i, an unroller's in front) and the
/// command output to the decoder (cmd_*, with cmd_bstride_o: the block stride of a loop's move,
/// 0 for the channel's or DIM).
void commandPorts(vlog::Module& m, const std::string& source, bool bstrideIn);

/// The output register (out_valid, out_funct, out_rs1, out_rs2, out_bstride), `active` (a loop
/// is issued: the input waits) and `host_fire` (the decoder takes the input's command).
void outputRegister(vlog::Body& b, StateRegs& regs);

/// The output register's next value: cleared when the decoder takes it, loaded with
/// cmd_funct / cmd_rs1 / cmd_rs2 / cmd_bstride when the sequencer steps on a command
/// (step && emit).
void nextOutput(vlog::Stmts& n);

/// The outputs: the unroller's command while a loop runs (phase_q != PhIdle or the output
/// register full), else the input's; busy_o.
void commandOutputs(vlog::Body& b, bool bstrideIn);

} // namespace by::hw::loops
