// The per-config half of the RTL accelerator model: compiled by the simulator cache together
// with the Verilated by_accelerator (class Vby_accelerator) into one shared object, never as
// part of the Brickyard build. It copies Ports to and from the Verilated ports once per cycle
// (axi_verilator.h does the AXI4 master, whatever the config's data and ID widths) and owns
// the optional FST writer. Nothing here may throw across the C interface.
#include "Vby_accelerator.h"
#include "axi/axi_verilator.h"
#include "rtlmodel/model_abi.h"

#include <cstdio>
#include <memory>
#include <new>
#include <verilated.h>
#if VM_TRACE_FST
#include <verilated_fst_c.h>
#endif

namespace {

using by::rtlmodel::Ports;

struct Model {
  VerilatedContext context;
  std::unique_ptr<Vby_accelerator> top;
#if VM_TRACE_FST
  std::unique_ptr<VerilatedFstC> trace;
#endif
};

void* create(char* error, size_t errorSize) {
  try {
    auto model = std::make_unique<Model>();
#if VM_TRACE_FST
    // Tracing must be enabled before the model exists; the writer is attached on request.
    model->context.traceEverOn(true);
#endif
    model->top = std::make_unique<Vby_accelerator>(&model->context, "by_accelerator");
    return model.release();
  } catch (const std::exception& e) {
    std::snprintf(error, errorSize, "%s", e.what());
    return nullptr;
  }
}

void destroy(void* handle) {
  auto* model = static_cast<Model*>(handle);
#if VM_TRACE_FST
  if (model->trace)
    model->trace->close();
#endif
  model->top->final();
  delete model;
}

void cycle(void* handle, Ports* p, uint64_t timePs, uint64_t halfPeriodPs, int dump) {
  auto* model = static_cast<Model*>(handle);
  Vby_accelerator& d = *model->top;
  d.rst_ni = p->rstN;
  d.cmd_valid_i = p->cmdValid;
  d.cmd_funct_i = p->cmdFunct;
  d.cmd_rs1_i = p->cmdRs1;
  d.cmd_rs2_i = p->cmdRs2;
  d.cmd_xd_i = p->cmdXd;
  d.resp_ready_i = p->respReady;
  d.s_axil_awvalid_i = p->lite.aw.valid;
  d.s_axil_awaddr_i = p->lite.aw.addr;
  d.s_axil_wvalid_i = p->lite.w.valid;
  d.s_axil_wdata_i = p->lite.w.data;
  d.s_axil_wstrb_i = p->lite.w.strb;
  d.s_axil_bready_i = p->lite.b.ready;
  d.s_axil_arvalid_i = p->lite.ar.valid;
  d.s_axil_araddr_i = p->lite.ar.addr;
  d.s_axil_rready_i = p->lite.r.ready;
  by::axi::toDut(d, p->axi);
  d.clk_i = 0;
  d.eval();
#if VM_TRACE_FST
  if (dump && model->trace)
    model->trace->dump(timePs);
#endif

  p->cmdReady = d.cmd_ready_o;
  p->respValid = d.resp_valid_o;
  p->respData = d.resp_data_o;
  p->irq = d.irq_o;
  p->busy = d.busy_o;
  p->lite.aw.ready = d.s_axil_awready_o;
  p->lite.w.ready = d.s_axil_wready_o;
  p->lite.b.valid = d.s_axil_bvalid_o;
  p->lite.b.resp = d.s_axil_bresp_o;
  p->lite.ar.ready = d.s_axil_arready_o;
  p->lite.r.valid = d.s_axil_rvalid_o;
  p->lite.r.data = d.s_axil_rdata_o;
  p->lite.r.resp = d.s_axil_rresp_o;
  by::axi::fromDut(d, p->axi);

  d.clk_i = 1;
  d.eval();
#if VM_TRACE_FST
  if (dump && model->trace)
    model->trace->dump(timePs + halfPeriodPs);
#else
  (void)timePs;
  (void)halfPeriodPs;
  (void)dump;
#endif
}

int openTrace(void* handle, const char* path, char* error, size_t errorSize) {
#if VM_TRACE_FST
  auto* model = static_cast<Model*>(handle);
  try {
    model->trace = std::make_unique<VerilatedFstC>();
    model->top->trace(model->trace.get(), 99);
    model->trace->open(path);
    if (!model->trace->isOpen()) {
      model->trace.reset();
      std::snprintf(error, errorSize, "cannot open %s for writing", path);
      return 0;
    }
    return 1;
  } catch (const std::exception& e) {
    model->trace.reset();
    std::snprintf(error, errorSize, "%s", e.what());
    return 0;
  }
#else
  (void)handle;
  std::snprintf(error, errorSize, "cannot write %s: the model was built without tracing", path);
  return 0;
#endif
}

void closeTrace(void* handle) {
#if VM_TRACE_FST
  auto* model = static_cast<Model*>(handle);
  if (model->trace) {
    model->trace->close();
    model->trace.reset();
  }
#else
  (void)handle;
#endif
}

const by::rtlmodel::ModelApi kApi = {
    by::rtlmodel::kAbiVersion,
    static_cast<uint32_t>(sizeof(Ports)),
    VM_TRACE_FST,
    "by_accelerator",
    create,
    destroy,
    cycle,
    openTrace,
    closeTrace,
};

} // namespace

extern "C" __attribute__((visibility("default"))) const by::rtlmodel::ModelApi* by_rtl_model_api() {
  return &kApi;
}
