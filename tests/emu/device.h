/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The emulated AIC100 as a whole: config space, per-BAR register handlers,
 * interrupt injection, DMA into guest memory and the counters tests and
 * benchmarks read.
 *
 * The device does not know how it is attached to the guest. A transport
 * (virtio_pcidev.c today) feeds config and MMIO accesses in and supplies the
 * two things the device needs back: guest memory (for DMA) and a way to
 * deliver an MSI message (struct emu_irq_sink).
 *
 * Threading: everything here runs on the transport's thread today. A later
 * DMA worker thread will need a lock around counters, pci and guest_mem.
 */
#ifndef QAIC_EMU_DEVICE_H
#define QAIC_EMU_DEVICE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "guest_mem.h"
#include "pci.h"

struct emu_device;
struct malice;

/*
 * Register model of one BAR. Called only for accesses that lie entirely
 * inside the BAR (and outside the MSI-X table/PBA), with memory decoding
 * enabled; @len is at least 1. A register model that only supports some
 * access sizes decides itself what other sizes do.
 */
struct emu_bar_ops {
	const char *name;
	void (*read)(struct emu_device *dev, void *priv, uint64_t off,
		     void *buf, uint64_t len);
	void (*write)(struct emu_device *dev, void *priv, uint64_t off,
		      const void *buf, uint64_t len);
};

/* How the transport takes an MSI/MSI-X message to the guest. */
struct emu_irq_sink {
	void (*send)(void *ctx, const struct emu_msi_msg *msg);
	void *ctx;
};

struct emu_counters {
	uint64_t cfg_reads;
	uint64_t cfg_writes;
	uint64_t cfg_rejected;		/* out of config space or bad size */
	uint64_t mmio_reads[EMU_PCI_NUM_BARS];
	uint64_t mmio_writes[EMU_PCI_NUM_BARS];
	uint64_t mmio_rejected;		/* no such BAR, out of range, decode off */
	uint64_t mmio_no_decode;	/* of those: memory decoding off */
	uint64_t dma_read_bytes;	/* guest memory -> device */
	uint64_t dma_write_bytes;	/* device -> guest memory */
	uint64_t dma_refused;		/* outside what the guest mapped */
	uint64_t dma_no_master;		/* tried with bus mastering off */
	uint64_t irq_sent;		/* MSI messages handed to the guest */
	uint64_t irq_masked;		/* held as pending while masked */
	uint64_t irq_dropped;		/* MSI/MSI-X off, no bus master, bad vector */
	uint64_t irq_deferred;		/* waited for a transport buffer */
	uint64_t irq_lost;		/* transport backlog overflowed */
	uint64_t cmd_bad;		/* malformed transport messages */
	uint64_t flrs;			/* function-level resets done */
	uint64_t dead_accesses;		/* config/BAR accesses after falling off */
	uint64_t garbage_reads;		/* BAR0 reads answered all-ones (fault) */
	uint64_t cfg_lost;		/* writes lost by --lose-decode-writes */
};

struct emu_bar {
	uint64_t size;
	const struct emu_bar_ops *ops;
	void *priv;
	uint8_t *regs;			/* backing of the default register file */
};

struct emu_device {
	struct emu_pci pci;
	struct emu_bar bars[EMU_PCI_NUM_BARS];
	const struct guest_mem *mem;
	struct emu_irq_sink irq;
	struct emu_counters counters;
	/* Fell off the bus (emu_device_fall_off()): reads all-ones, for good. */
	bool dead;
	/* What resets the device models at a function-level reset. */
	void (*flr_hook)(void *ctx);
	void *flr_ctx;
	struct malice *malice;		/* malicious-card mode, NULL: off */
	/*
	 * Reads of BAR0 (the MHI registers) still to answer all-ones, as a
	 * card still coming up after power-on might (--garbage-reads).
	 */
	unsigned int garbage_reads;
	/*
	 * Config writes that would turn memory decoding on still to lose, as
	 * a posted write that never reached the card (--lose-decode-writes).
	 */
	unsigned int lose_decode_writes;
	bool verbose;
	/*
	 * DMA faults (unmapped or read-only IOVA) logged on stderr, rate
	 * limited, whether verbose or not (the vfio-user transport: see
	 * device.c's dma_fault()).
	 */
	bool loud_dma_faults;
	long dma_fault_log_sec;
	uint64_t dma_faults_logged, dma_faults_unlogged;
};

/* Returns 0 or -ENOMEM. */
int emu_device_init(struct emu_device *dev, bool has_msix);
void emu_device_fini(struct emu_device *dev);

/* Plug a register model into @bar (NULL @ops: back to the register file). */
void emu_device_set_bar_ops(struct emu_device *dev, unsigned int bar,
			    const struct emu_bar_ops *ops, void *priv);
void emu_device_set_guest_mem(struct emu_device *dev,
			      const struct guest_mem *mem);
void emu_device_set_irq_sink(struct emu_device *dev,
			     const struct emu_irq_sink *sink);

/*
 * A function-level reset (offered with emu_pci_set_flr()) brings config
 * space and the plain register files back to power-on, then calls @fn,
 * which brings the device models back to power-on.
 */
void emu_device_set_flr_hook(struct emu_device *dev, void (*fn)(void *ctx),
			     void *ctx);

/*
 * A conventional reset (a bus reset, or vfio-user's DEVICE_RESET): the
 * same as a function-level reset, through the same hook, but not counted
 * as one.
 */
void emu_device_reset(struct emu_device *dev);

/*
 * The card falls off the bus, for good: config and BAR reads return
 * all-ones, writes are lost, no interrupt or DMA goes out (the models go
 * on, unseen).
 */
void emu_device_fall_off(struct emu_device *dev);

/* Config space, as the transport sees it. Bad accesses read all-ones. */
uint64_t emu_cfg_read(struct emu_device *dev, uint64_t off, uint32_t size);
void emu_cfg_write(struct emu_device *dev, uint64_t off, uint32_t size,
		   uint64_t val);

/* BAR accesses. Rejected reads fill @buf with all-ones. */
void emu_mmio_read(struct emu_device *dev, unsigned int bar, uint64_t off,
		   void *buf, uint64_t len);
void emu_mmio_write(struct emu_device *dev, unsigned int bar, uint64_t off,
		    const void *buf, uint64_t len);
void emu_mmio_memset(struct emu_device *dev, unsigned int bar, uint64_t off,
		     uint8_t value, uint64_t len);

/* Raise interrupt @vector (0 = MHI, 1..16 = DBC0..15 on AIC100). */
enum emu_irq_route emu_irq_raise(struct emu_device *dev, unsigned int vector);

/*
 * Malicious-card mode (malice.h): emu_irq_raise() may drop an MSI or
 * start a storm of them, any MMIO access may be followed by a spurious
 * MSI. The storms are timed: the main loop polls at most
 * emu_device_timeout_ms() (-1: no limit) and calls emu_device_tick().
 */
int emu_device_timeout_ms(const struct emu_device *dev);
void emu_device_tick(struct emu_device *dev);

/* Deliver pending vectors that the guest has unmasked since. */
void emu_irq_flush_pending(struct emu_device *dev);

/*
 * DMA between the device and guest physical memory (an IOVA when the
 * guest has an IOMMU). Returns 0, or -EFAULT (range not inside one region
 * of guest memory, or wraps, or a write to a read-only map), -EPERM (bus
 * mastering disabled) or the transport's error for a region it reaches by
 * messages; refusals are counted in dma_refused (or dma_no_master),
 * never fatal.
 */
int emu_dma_read(struct emu_device *dev, uint64_t addr, void *buf,
		 uint64_t len);
int emu_dma_write(struct emu_device *dev, uint64_t addr, const void *buf,
		  uint64_t len);

/*
 * Whether all of [addr, addr + len) is guest memory the device can reach
 * (mapped here or through the transport); checks only, counts nothing.
 */
bool emu_dma_reachable(const struct emu_device *dev, uint64_t addr,
		       uint64_t len);

/* "key value" lines, one per counter. */
void emu_counters_print(const struct emu_counters *c, FILE *out);

void emu_log(const struct emu_device *dev, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif /* QAIC_EMU_DEVICE_H */
