// SPDX-License-Identifier: GPL-2.0-only
/*
 * Device glue of the emulated AIC100: routes config and BAR accesses,
 * injects interrupts and performs DMA, counting everything.
 *
 * Until MHI (BAR0) and the DMA Bridge (BAR2) are modelled, every BAR is a
 * plain register file: reads return what was last written, 0 at reset.
 */
#include <errno.h>
#include <inttypes.h>
#include <linux/pci_regs.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "card.h"
#include "device.h"
#include "malice.h"

/* Vectors AIC100 uses: MHI and the 16 DBCs. */
#define IRQ_VECTORS_IN_USE	17

void emu_log(const struct emu_device *dev, const char *fmt, ...)
{
	va_list ap;

	if (!dev->verbose)
		return;
	va_start(ap, fmt);
	fputs("qaic-emu: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
}

static void regfile_read(struct emu_device *dev, void *priv, uint64_t off,
			 void *buf, uint64_t len)
{
	(void)dev;
	memcpy(buf, (uint8_t *)priv + off, len);
}

static void regfile_write(struct emu_device *dev, void *priv, uint64_t off,
			  const void *buf, uint64_t len)
{
	(void)dev;
	memcpy((uint8_t *)priv + off, buf, len);
}

static void spurious_irq(struct emu_device *dev);

static const struct emu_bar_ops regfile_ops = {
	.name = "regfile",
	.read = regfile_read,
	.write = regfile_write,
};

int emu_device_init(struct emu_device *dev, bool has_msix)
{
	unsigned int bar;

	memset(dev, 0, sizeof(*dev));
	emu_pci_init(&dev->pci, has_msix);

	for (bar = 0; bar < EMU_PCI_NUM_BARS; bar++) {
		struct emu_bar *b = &dev->bars[bar];

		b->size = emu_pci_bar_size(bar);
		if (!b->size)
			continue;
		b->regs = calloc(1, b->size);
		if (!b->regs) {
			emu_device_fini(dev);
			return -ENOMEM;
		}
		emu_device_set_bar_ops(dev, bar, NULL, NULL);
	}
	return 0;
}

void emu_device_fini(struct emu_device *dev)
{
	unsigned int bar;

	for (bar = 0; bar < EMU_PCI_NUM_BARS; bar++) {
		free(dev->bars[bar].regs);
		dev->bars[bar].regs = NULL;
	}
}

void emu_device_set_bar_ops(struct emu_device *dev, unsigned int bar,
			    const struct emu_bar_ops *ops, void *priv)
{
	struct emu_bar *b = &dev->bars[bar];

	b->ops = ops ? ops : &regfile_ops;
	b->priv = ops ? priv : b->regs;
}

void emu_device_set_guest_mem(struct emu_device *dev,
			      const struct guest_mem *mem)
{
	dev->mem = mem;
}

void emu_device_set_irq_sink(struct emu_device *dev,
			     const struct emu_irq_sink *sink)
{
	dev->irq = *sink;
}

void emu_device_fall_off(struct emu_device *dev)
{
	emu_log(dev, "fell off the bus");
	dev->dead = true;
}

uint64_t emu_cfg_read(struct emu_device *dev, uint64_t off, uint32_t size)
{
	uint64_t val;

	if (dev->dead) {
		dev->counters.dead_accesses++;
		return size >= 8 ? ~0ULL : (1ULL << (8 * size)) - 1;
	}

	dev->counters.cfg_reads++;
	if (!emu_pci_cfg_read(&dev->pci, off, size, &val)) {
		dev->counters.cfg_rejected++;
		emu_log(dev, "config read rejected: off %#" PRIx64 " size %u",
			off, size);
	}
	return val;
}

void emu_device_set_flr_hook(struct emu_device *dev, void (*fn)(void *ctx),
			     void *ctx)
{
	dev->flr_hook = fn;
	dev->flr_ctx = ctx;
}

/*
 * Config space as at power-on (MSI, MSI-X and bus mastering off, so
 * nothing pending goes out), plain register files cleared, then the
 * device models. The host restores config space after. What the card is
 * (id, MSI-X, FLR offered, how interrupts leave) survives.
 */
void emu_device_reset(struct emu_device *dev)
{
	uint16_t id = emu_pci_device_id(&dev->pci);
	bool has_msix = dev->pci.has_msix;
	bool has_flr = dev->pci.has_flr;
	bool by_vector = dev->pci.irq_by_vector;
	unsigned int bar;

	if (dev->dead)
		return;
	emu_pci_init(&dev->pci, has_msix);
	emu_pci_set_device_id(&dev->pci, id);
	emu_pci_set_flr(&dev->pci, has_flr);
	emu_pci_set_irq_by_vector(&dev->pci, by_vector);
	for (bar = 0; bar < EMU_PCI_NUM_BARS; bar++)
		if (dev->bars[bar].regs)
			memset(dev->bars[bar].regs, 0, dev->bars[bar].size);
	if (dev->flr_hook)
		dev->flr_hook(dev->flr_ctx);
}

static void device_flr(struct emu_device *dev)
{
	dev->counters.flrs++;
	emu_log(dev, "function-level reset");
	emu_device_reset(dev);
}

void emu_cfg_write(struct emu_device *dev, uint64_t off, uint32_t size,
		   uint64_t val)
{
	if (dev->dead) {
		dev->counters.dead_accesses++;
		return;
	}
	dev->counters.cfg_writes++;
	if (dev->lose_decode_writes && off <= PCI_COMMAND && off + size > PCI_COMMAND &&
	    !emu_pci_mem_enabled(&dev->pci) &&
	    ((val >> (8 * (PCI_COMMAND - off))) & PCI_COMMAND_MEMORY)) {
		dev->lose_decode_writes--;
		dev->counters.cfg_lost++;
		fprintf(stderr, "qaic-emu: fault: config write turning memory decoding on lost\n");
		return;
	}
	if (emu_pci_is_flr(&dev->pci, off, size, val)) {
		device_flr(dev);
		return;
	}
	if (!emu_pci_cfg_write(&dev->pci, off, size, val)) {
		dev->counters.cfg_rejected++;
		emu_log(dev, "config write rejected: off %#" PRIx64 " size %u",
			off, size);
		return;
	}
	/* The write may have unmasked a vector or enabled bus mastering. */
	emu_irq_flush_pending(dev);
}

/*
 * Decide whether a BAR access reaches a register model. Returns the MSI-X
 * claim (see emu_pci_msix_claim()) or -1 when the access is rejected.
 */
static int mmio_check(struct emu_device *dev, unsigned int bar, uint64_t off,
		      uint64_t len)
{
	int claim;

	if (dev->dead) {
		dev->counters.dead_accesses++;
		return -1;
	}
	if (bar >= EMU_PCI_NUM_BARS || !emu_pci_card_bar_size(&dev->pci, bar) || !len ||
	    off >= dev->bars[bar].size || len > dev->bars[bar].size - off) {
		emu_log(dev, "MMIO rejected: bar %u off %#" PRIx64 " len %" PRIu64,
			bar, off, len);
		return -1;
	}
	/*
	 * A function that does not decode memory never sees the access. The
	 * first time is told even without --verbose: a host whose command
	 * register write got lost reads all-ones and cannot tell why.
	 */
	if (!emu_pci_mem_enabled(&dev->pci)) {
		if (!dev->counters.mmio_no_decode++)
			fprintf(stderr, "qaic-emu: MMIO with memory decoding off (bar %u off %#"
				PRIx64 "); PCI_COMMAND %#x; later ones counted\n", bar, off,
				emu_pci_command(&dev->pci));
		emu_log(dev, "MMIO with memory decoding off: bar %u", bar);
		return -1;
	}
	claim = emu_pci_msix_claim(&dev->pci, bar, off, len);
	if (claim < 0)
		emu_log(dev, "MMIO straddles the MSI-X table/PBA: off %#" PRIx64,
			off);
	return claim;
}

void emu_mmio_read(struct emu_device *dev, unsigned int bar, uint64_t off,
		   void *buf, uint64_t len)
{
	int claim = mmio_check(dev, bar, off, len);
	struct emu_bar *b;

	if (claim < 0) {
		dev->counters.mmio_rejected++;
		memset(buf, 0xff, len);
		return;
	}
	dev->counters.mmio_reads[bar]++;
	if (bar == emu_card_of(&dev->pci)->mhi_bar && dev->garbage_reads) {
		dev->garbage_reads--;
		dev->counters.garbage_reads++;
		emu_log(dev, "fault: MHI BAR read at %#" PRIx64 " answered all-ones", off);
		memset(buf, 0xff, len);
		return;
	}
	b = &dev->bars[bar];
	if (claim)
		emu_pci_msix_read(&dev->pci, off, buf, len);
	else
		b->ops->read(dev, b->priv, off, buf, len);
	spurious_irq(dev);
}

void emu_mmio_write(struct emu_device *dev, unsigned int bar, uint64_t off,
		    const void *buf, uint64_t len)
{
	int claim = mmio_check(dev, bar, off, len);
	struct emu_bar *b;

	if (claim < 0) {
		dev->counters.mmio_rejected++;
		return;
	}
	dev->counters.mmio_writes[bar]++;
	b = &dev->bars[bar];
	if (claim) {
		emu_pci_msix_write(&dev->pci, off, buf, len);
		emu_irq_flush_pending(dev);
	} else {
		b->ops->write(dev, b->priv, off, buf, len);
	}
	spurious_irq(dev);
}

/* memset_io() is a stream of writes of one value; counted as one access. */
void emu_mmio_memset(struct emu_device *dev, unsigned int bar, uint64_t off,
		     uint8_t value, uint64_t len)
{
	uint8_t chunk[256];
	uint64_t done, n;

	if (mmio_check(dev, bar, off, len) < 0 ||
	    emu_pci_msix_claim(&dev->pci, bar, off, len)) {
		dev->counters.mmio_rejected++;
		return;
	}
	dev->counters.mmio_writes[bar]++;
	memset(chunk, value, sizeof(chunk));
	for (done = 0; done < len; done += n) {
		n = len - done < sizeof(chunk) ? len - done : sizeof(chunk);
		dev->bars[bar].ops->write(dev, dev->bars[bar].priv, off + done,
					  chunk, n);
	}
}

static void irq_send(struct emu_device *dev, const struct emu_msi_msg *msg)
{
	if (!dev->irq.send) {
		dev->counters.irq_dropped++;
		return;
	}
	dev->irq.send(dev->irq.ctx, msg);
}

static enum emu_irq_route irq_raise(struct emu_device *dev, unsigned int vector)
{
	struct emu_msi_msg msg;
	enum emu_irq_route route;

	if (dev->dead) {
		dev->counters.irq_dropped++;
		return EMU_IRQ_DROP;
	}
	route = emu_pci_irq_route(&dev->pci, vector, &msg);
	switch (route) {
	case EMU_IRQ_SEND:
		irq_send(dev, &msg);
		break;
	case EMU_IRQ_PENDING:
		dev->counters.irq_masked++;
		break;
	case EMU_IRQ_DROP:
		dev->counters.irq_dropped++;
		emu_log(dev, "interrupt %u dropped (no MSI/MSI-X or bus master)",
			vector);
		break;
	}
	return route;
}

enum emu_irq_route emu_irq_raise(struct emu_device *dev, unsigned int vector)
{
	if (malice_drop(dev->malice, MALICE_MSI_DROP)) {
		emu_log(dev, "malice: interrupt %u not sent", vector);
		return EMU_IRQ_DROP;
	}
	if (malice_storm(dev->malice, vector))
		emu_log(dev, "malice: storm of interrupt %u", vector);
	return irq_raise(dev, vector);
}

/* A spurious MSI after an MMIO access: nothing new, or a vector not in use. */
static void spurious_irq(struct emu_device *dev)
{
	unsigned int vector;

	if (!malice_hit(dev->malice, MALICE_MSI_SPURIOUS))
		return;
	vector = malice_vector(dev->malice, IRQ_VECTORS_IN_USE);
	emu_log(dev, "malice: spurious interrupt %u", vector);
	irq_raise(dev, vector);
}

int emu_device_timeout_ms(const struct emu_device *dev)
{
	return malice_timeout_ms(dev->malice);
}

void emu_device_tick(struct emu_device *dev)
{
	unsigned int vector, n = malice_storm_take(dev->malice, &vector);

	while (n--)
		irq_raise(dev, vector);
}

void emu_irq_flush_pending(struct emu_device *dev)
{
	struct emu_msi_msg msg;

	while (emu_pci_irq_take_unmasked(&dev->pci, &msg))
		irq_send(dev, &msg);
}

/*
 * A DMA the IOMMU (or the lack of a mapping) refuses: with loud DMA faults
 * one line on stderr per fault, at most DMA_FAULT_LOG_PER_SEC a second,
 * because the bench takes any of them for a use-after-free by the driver.
 */
#define DMA_FAULT_LOG_PER_SEC	10

static void dma_fault(struct emu_device *dev, uint64_t addr, uint64_t len,
		      const char *what, const char *why)
{
	struct timespec now;

	if (!dev->loud_dma_faults) {
		emu_log(dev, "DMA %s %s: %#" PRIx64 "+%" PRIu64, what, why, addr,
			len);
		return;
	}
	clock_gettime(CLOCK_MONOTONIC, &now);
	if (now.tv_sec != dev->dma_fault_log_sec) {
		if (dev->dma_faults_unlogged)
			fprintf(stderr, "qaic-emu: DMA fault: %" PRIu64
				" more not logged\n", dev->dma_faults_unlogged);
		dev->dma_fault_log_sec = now.tv_sec;
		dev->dma_faults_logged = 0;
		dev->dma_faults_unlogged = 0;
	}
	if (dev->dma_faults_logged++ >= DMA_FAULT_LOG_PER_SEC) {
		dev->dma_faults_unlogged++;
		return;
	}
	fprintf(stderr, "qaic-emu: DMA fault: %s iova %#" PRIx64 " len %" PRIu64
		": %s\n", what, addr, len, why);
}

/*
 * Look up a DMA range, or count and explain why the device cannot use it.
 * Returns the region holding all of it (its host pointer may be NULL: the
 * transport reaches it through mem->io).
 */
static const struct guest_mem_region *dma_check(struct emu_device *dev,
						uint64_t addr, uint64_t len,
						bool write, int *err)
{
	const char *what = write ? "write" : "read";
	const struct guest_mem_region *r = NULL;

	if (dev->dead) {
		*err = -EIO;
	} else if (!emu_pci_bus_master(&dev->pci)) {
		/*
		 * Not a fault: with bus mastering off no request leaves the
		 * card, whatever it still had queued (a driver stops a card so
		 * before a reset). Counted apart from the refusals a run must
		 * not have.
		 */
		*err = -EPERM;
		emu_log(dev, "DMA without bus mastering at %#" PRIx64, addr);
		dev->counters.dma_no_master++;
		return NULL;
	} else if (!dev->mem || !(r = guest_mem_find(dev->mem, addr, len))) {
		*err = -EFAULT;
		dma_fault(dev, addr, len, what, "not mapped");
	} else if (write && r->read_only) {
		*err = -EFAULT;
		dma_fault(dev, addr, len, what, "read-only map");
		r = NULL;
	} else if (!r->host && (write ? !dev->mem->io.write : !dev->mem->io.read)) {
		*err = -EFAULT;
		dma_fault(dev, addr, len, what, "not reachable");
		r = NULL;
	} else {
		return r;
	}
	dev->counters.dma_refused++;
	return NULL;
}

/* The transport could not reach a region it holds: a fault as well. */
static int dma_io_failed(struct emu_device *dev, uint64_t addr, uint64_t len,
			 const char *what, int err)
{
	dev->counters.dma_refused++;
	dma_fault(dev, addr, len, what, strerror(-err));
	return err;
}

/*
 * How much of [addr, addr + len) the region holding @addr holds: behind a
 * vIOMMU, QEMU maps a buffer that is contiguous in IOVA page by page (a
 * DMA_MAP each), so one DMA may span several regions. All of @len when no
 * region holds @addr (dma_check() reports it).
 */
static uint64_t dma_piece(const struct emu_device *dev, uint64_t addr,
			  uint64_t len)
{
	const struct guest_mem_region *r;
	uint64_t left;

	r = dev->mem ? guest_mem_find(dev->mem, addr, 1) : NULL;
	if (!r)
		return len;
	left = r->size - (addr - r->gpa);
	return len < left ? len : left;
}

static int dma_read_one(struct emu_device *dev, uint64_t addr, void *buf,
			uint64_t len)
{
	const struct guest_mem_region *r;
	int err;

	r = dma_check(dev, addr, len, false, &err);
	if (!r)
		return err;
	if (r->host) {
		memcpy(buf, r->host + (addr - r->gpa), len);
	} else {
		err = dev->mem->io.read(dev->mem->io.ctx, addr, buf, len);
		if (err)
			return dma_io_failed(dev, addr, len, "read", err);
	}
	dev->counters.dma_read_bytes += len;
	return 0;
}

static int dma_write_one(struct emu_device *dev, uint64_t addr,
			 const void *buf, uint64_t len)
{
	const struct guest_mem_region *r;
	int err;

	r = dma_check(dev, addr, len, true, &err);
	if (!r)
		return err;
	if (r->host) {
		memcpy(r->host + (addr - r->gpa), buf, len);
	} else {
		err = dev->mem->io.write(dev->mem->io.ctx, addr, buf, len);
		if (err)
			return dma_io_failed(dev, addr, len, "write", err);
	}
	dev->counters.dma_write_bytes += len;
	return 0;
}

/*
 * Whether every piece of [addr, addr + len) may be read (or written): checked
 * before any byte moves, so that a DMA runs whole or not at all.
 */
static int dma_check_all(struct emu_device *dev, uint64_t addr, uint64_t len,
			 bool write)
{
	int err = 0;

	while (len) {
		uint64_t n = dma_piece(dev, addr, len);

		if (!dma_check(dev, addr, n, write, &err))
			return err;
		addr += n;
		len -= n;
	}
	return 0;
}

/* A DMA, whole or not at all, piece by piece. */
static int dma_move(struct emu_device *dev, uint64_t addr, uint8_t *buf,
		    uint64_t len, bool write)
{
	int err = dma_check_all(dev, addr, len, write);

	while (!err && len) {
		uint64_t n = dma_piece(dev, addr, len);

		err = write ? dma_write_one(dev, addr, buf, n) :
			      dma_read_one(dev, addr, buf, n);
		addr += n;
		buf += n;
		len -= n;
	}
	return err;
}

int emu_dma_read(struct emu_device *dev, uint64_t addr, void *buf,
		 uint64_t len)
{
	return dma_move(dev, addr, buf, len, false);
}

/* dma_move() only reads @buf for a write. */
int emu_dma_write(struct emu_device *dev, uint64_t addr, const void *buf,
		  uint64_t len)
{
	return dma_move(dev, addr, (uint8_t *)buf, len, true);
}

bool emu_dma_reachable(const struct emu_device *dev, uint64_t addr,
		       uint64_t len)
{
	while (len) {
		uint64_t n = dma_piece(dev, addr, len);

		if (!dev->mem || !guest_mem_find(dev->mem, addr, n))
			return false;
		addr += n;
		len -= n;
	}
	return true;
}

static void print_counter(FILE *out, const char *key, uint64_t val)
{
	fprintf(out, "%s %" PRIu64 "\n", key, val);
}

void emu_counters_print(const struct emu_counters *c, FILE *out)
{
	char key[32];
	unsigned int bar;

	print_counter(out, "cfg_reads", c->cfg_reads);
	print_counter(out, "cfg_writes", c->cfg_writes);
	print_counter(out, "cfg_rejected", c->cfg_rejected);
	for (bar = 0; bar < EMU_PCI_NUM_BARS; bar += 2) {
		snprintf(key, sizeof(key), "mmio_reads_bar%u", bar);
		print_counter(out, key, c->mmio_reads[bar]);
		snprintf(key, sizeof(key), "mmio_writes_bar%u", bar);
		print_counter(out, key, c->mmio_writes[bar]);
	}
	print_counter(out, "mmio_rejected", c->mmio_rejected);
	print_counter(out, "mmio_no_decode", c->mmio_no_decode);
	print_counter(out, "garbage_reads", c->garbage_reads);
	print_counter(out, "cfg_lost", c->cfg_lost);
	print_counter(out, "dma_read_bytes", c->dma_read_bytes);
	print_counter(out, "dma_write_bytes", c->dma_write_bytes);
	print_counter(out, "dma_refused", c->dma_refused);
	print_counter(out, "dma_no_master", c->dma_no_master);
	print_counter(out, "irq_sent", c->irq_sent);
	print_counter(out, "irq_masked", c->irq_masked);
	print_counter(out, "irq_dropped", c->irq_dropped);
	print_counter(out, "irq_deferred", c->irq_deferred);
	print_counter(out, "irq_lost", c->irq_lost);
	print_counter(out, "cmd_bad", c->cmd_bad);
	print_counter(out, "flrs", c->flrs);
	print_counter(out, "dead_accesses", c->dead_accesses);
}
