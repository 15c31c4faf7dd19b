// SPDX-License-Identifier: GPL-2.0-only
/*
 * qaic_rawrt: the raw round trip of the bench's emulated AIC100, the limit
 * of scripts/qaic bench's round-trip rows. Not a driver: loaded while no
 * qaic module is, it binds the card, activates one DBC through the
 * emulator's raw registers (tests/emu/dbc.h, EMU_DBC_RAW_*; no manager, no
 * MHI), runs the smallest loop that moves a 4 KiB job through the DMA
 * Bridge and back, and leaves the results in its parameters:
 *
 *   QD1:  write the request into the ring, write REQTP; the MSI's handler
 *         completes a completion; the waiter sees the response in memory
 *         and writes RSPHP. Two posted MMIO writes, one MSI, no MMIO read.
 *   QD32: 32 requests in flight; on each MSI, retire every response in
 *         memory, write RSPHP once, queue as many requests again and write
 *         REQTP once: the best coalescing and doorbell batching possible.
 *
 * No MMIO in the hard-IRQ handler. An MSI or a posted write that comes
 * late (see run()) costs a wait that is counted and left out.
 *
 *   insmod qaic_rawrt.ko [dbc=0] [ms=1000]
 *   cat /sys/module/qaic_rawrt/parameters/{result,qd1_jobs,qd1_ns,qd32_jobs,qd32_ns}
 *   rmmod qaic_rawrt
 *
 * Copyright (c) 2026 The qaic authors.
 */
#include <linux/completion.h>
#include <linux/dma-mapping.h>
#include <linux/interrupt.h>
#include <linux/io.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/pci.h>

/* tests/emu/dbc.h */
#define RAW_BASE	0x10000
#define RAW_RING_LO	0x0
#define RAW_RING_HI	0x4
#define RAW_NELEM	0x8
#define RAW_CTRL	0xc
#define RAW_ON		BIT(31)
#define RAW_OK		1
#define DBC_BASE	0x20000
#define DBC_STRIDE	0x1000
#define REQTP		0x4
#define RSPHP		0x8

#define CMD_TO_DEV	0x01
#define CMD_BULK	0x08
#define CMD_RSP		0x10

#define NELEM		64
#define QD_MAX		32
#define XFER		4096

static unsigned int dbc;
module_param(dbc, uint, 0444);
MODULE_PARM_DESC(dbc, "DBC to use (0..15)");
static unsigned int ms = 1000;
module_param(ms, uint, 0444);
MODULE_PARM_DESC(ms, "milliseconds per queue depth");
static int result = -ENODEV;
module_param(result, int, 0444);
MODULE_PARM_DESC(result, "0, or the -errno that ended the measurement");
/* Per queue depth: jobs, nanoseconds, REQTP and RSPHP writes, MSIs. */
static unsigned long qd1_jobs, qd1_ns, qd1_reqtp, qd1_rsphp, qd1_irqs;
static unsigned long qd32_jobs, qd32_ns, qd32_reqtp, qd32_rsphp, qd32_irqs;
module_param(qd1_jobs, ulong, 0444);
module_param(qd1_ns, ulong, 0444);
module_param(qd1_reqtp, ulong, 0444);
module_param(qd1_rsphp, ulong, 0444);
module_param(qd1_irqs, ulong, 0444);
module_param(qd32_jobs, ulong, 0444);
module_param(qd32_ns, ulong, 0444);
module_param(qd32_reqtp, ulong, 0444);
module_param(qd32_rsphp, ulong, 0444);
module_param(qd32_irqs, ulong, 0444);

/*
 * Per queue depth: waits of 10-20 ms (two jiffies) without an MSI (see
 * run()), their nanoseconds (part of *_ns), and how many of them found
 * the response in memory (late_msi) or REQHP behind the tail (late_write).
 */
static unsigned long qd1_stalls, qd1_stall_ns, qd32_stalls, qd32_stall_ns;
static unsigned long qd1_late_msi, qd1_late_write, qd32_late_msi, qd32_late_write;
module_param(qd1_stalls, ulong, 0444);
module_param(qd1_stall_ns, ulong, 0444);
module_param(qd1_late_msi, ulong, 0444);
module_param(qd1_late_write, ulong, 0444);
module_param(qd32_stalls, ulong, 0444);
module_param(qd32_stall_ns, ulong, 0444);
module_param(qd32_late_msi, ulong, 0444);
module_param(qd32_late_write, ulong, 0444);

struct loop_stats {
	unsigned long *jobs, *ns, *reqtp, *rsphp, *irqs, *stalls, *stall_ns;
	unsigned long *late_msi, *late_write;
};

static const struct loop_stats qd1_stats = {
	&qd1_jobs, &qd1_ns, &qd1_reqtp, &qd1_rsphp, &qd1_irqs, &qd1_stalls,
	&qd1_stall_ns, &qd1_late_msi, &qd1_late_write,
};

static const struct loop_stats qd32_stats = {
	&qd32_jobs, &qd32_ns, &qd32_reqtp, &qd32_rsphp, &qd32_irqs, &qd32_stalls,
	&qd32_stall_ns, &qd32_late_msi, &qd32_late_write,
};

struct dbc_req {
	__le16 req_id;
	u8 seq_id;
	u8 cmd;
	__le32 resv;
	__le64 src;
	__le64 dst;
	__le32 len;
	__le32 resv2;
	__le64 db_addr;
	u8 db_len;
	u8 resv3;
	__le16 resv4;
	__le32 db_data;
	__le32 sem[4];
} __packed;

struct rawrt {
	void __iomem *bar;
	void __iomem *regs;
	struct dbc_req *req;
	__le32 *rsp;
	dma_addr_t ring_dma;
	void *buf;
	dma_addr_t buf_dma;
	struct completion done;
	int irq;
	atomic_long_t irqs;
	u32 tail, head;
	u16 next_id;
};

static_assert(sizeof(struct dbc_req) == 64);

static irqreturn_t rawrt_irq(int irq, void *data)
{
	struct rawrt *r = data;

	atomic_long_inc(&r->irqs);
	complete(&r->done);
	return IRQ_HANDLED;
}

/* Queue @n 4 KiB to-device requests behind the tail (REQTP not written). */
static void queue(struct rawrt *r, unsigned int n)
{
	while (n--) {
		struct dbc_req *q = &r->req[r->tail];
		unsigned int slot = r->tail % QD_MAX;

		memset(q, 0, sizeof(*q));
		if (!++r->next_id)
			r->next_id = 1;	/* a response slot reads 0 until written */
		q->req_id = cpu_to_le16(r->next_id);
		q->cmd = CMD_TO_DEV | CMD_BULK | CMD_RSP;
		q->src = cpu_to_le64(r->buf_dma + (u64)slot * XFER);
		q->dst = cpu_to_le64((u64)slot * XFER);
		q->len = cpu_to_le32(XFER);
		r->tail = (r->tail + 1) % NELEM;
	}
	dma_wmb();
}

static int run(struct rawrt *r, unsigned int qd, const struct loop_stats *st)
{
	ktime_t start = ktime_get(), end = ktime_add_ms(start, ms);
	unsigned long done = 0, reqtp = 1, rsphp = 0, stalls = 0, stall_ns = 0;
	unsigned int inflight = qd, tries = 0;
	int err = 0;

	reinit_completion(&r->done);
	atomic_long_set(&r->irqs, 0);
	*st->late_msi = 0;
	*st->late_write = 0;
	queue(r, qd);
	writel(r->tail, r->regs + REQTP);
	while (inflight) {
		ktime_t t0 = ktime_get();
		unsigned int n = 0;
		u32 v;

		if (!wait_for_completion_timeout(&r->done, 2)) {
			/*
			 * On this bench an MSI now and then does not come,
			 * with the response in memory (late_msi), or the card
			 * has not seen the REQTP write (late_write): the read
			 * of REQHP makes it go, and REQTP again is harmless
			 * (the card ignores a tail it has). Counted, and the
			 * time waited is left out.
			 */
			if (++tries > 100) {
				err = -ETIMEDOUT;
				break;
			}
			stall_ns += ktime_to_ns(ktime_sub(ktime_get(), t0));
			if (READ_ONCE(r->rsp[r->head])) {
				(*st->late_msi)++;
			} else if (readl(r->regs) != r->tail) {
				(*st->late_write)++;
				writel(r->tail, r->regs + REQTP);
			}
			stalls++;
		} else {
			tries = 0;
		}
		while ((v = le32_to_cpu(READ_ONCE(r->rsp[r->head])))) {
			dma_rmb();
			if (v >> 16 && !err)
				err = -EIO;	/* the request's status */
			WRITE_ONCE(r->rsp[r->head], 0);
			r->head = (r->head + 1) % NELEM;
			n++;
		}
		if (!n)
			continue;	/* the MSI of an RSPHP write: seen already */
		inflight -= min(n, inflight);
		done += n;
		writel(r->head, r->regs + RSPHP);
		rsphp++;
		if (!err && ktime_before(ktime_get(), end)) {
			queue(r, n);
			writel(r->tail, r->regs + REQTP);
			reqtp++;
			inflight += n;
		}
	}
	*st->ns = ktime_to_ns(ktime_sub(ktime_get(), start));
	*st->jobs = done;
	*st->reqtp = reqtp;
	*st->rsphp = rsphp;
	*st->irqs = atomic_long_read(&r->irqs);
	*st->stalls = stalls;
	*st->stall_ns = stall_ns;
	return err;
}

static int raw_ctrl(struct rawrt *r, u32 val)
{
	writel(val, r->bar + RAW_BASE + RAW_CTRL);
	/* The read is answered after the write is done. */
	return readl(r->bar + RAW_BASE + RAW_CTRL) == RAW_OK ? 0 : -EBUSY;
}

static int rawrt_probe(struct pci_dev *pdev, const struct pci_device_id *id)
{
	struct rawrt *r;
	int nvec, err;

	if (dbc >= 16)
		return -EINVAL;
	r = devm_kzalloc(&pdev->dev, sizeof(*r), GFP_KERNEL);
	if (!r)
		return -ENOMEM;
	init_completion(&r->done);
	pci_set_drvdata(pdev, r);
	err = pci_enable_device(pdev);
	if (err)
		goto out;
	pci_set_master(pdev);
	err = dma_set_mask_and_coherent(&pdev->dev, DMA_BIT_MASK(64));
	if (err)
		goto disable;
	r->bar = pci_iomap(pdev, 2, 0);
	if (!r->bar) {
		err = -ENOMEM;
		goto disable;
	}
	r->regs = r->bar + DBC_BASE + dbc * DBC_STRIDE;
	/*
	 * DBC i interrupts on vector 1 + i, or on 0 with a single MSI vector.
	 * The vectors of UML's virt-pci are few (32 for the whole machine):
	 * take only what the DBC needs.
	 */
	nvec = pci_alloc_irq_vectors(pdev, dbc + 2, dbc + 2, PCI_IRQ_MSIX);
	if (nvec < 0)
		nvec = pci_alloc_irq_vectors(pdev, 1, 1, PCI_IRQ_MSI);
	if (nvec < 0) {
		err = nvec;
		goto unmap;
	}
	r->irq = pci_irq_vector(pdev, nvec > 1 ? dbc + 1 : 0);
	err = request_irq(r->irq, rawrt_irq, 0, "qaic_rawrt", r);
	if (err)
		goto vectors;
	r->req = dma_alloc_coherent(&pdev->dev, NELEM * (64 + 4), &r->ring_dma,
				    GFP_KERNEL);
	r->buf = dma_alloc_coherent(&pdev->dev, QD_MAX * XFER, &r->buf_dma,
				    GFP_KERNEL);
	if (!r->req || !r->buf) {
		err = -ENOMEM;
		goto free;
	}
	r->rsp = (__le32 *)(r->req + NELEM);
	memset(r->buf, 0x5a, QD_MAX * XFER);
	writel(lower_32_bits(r->ring_dma), r->bar + RAW_BASE + RAW_RING_LO);
	writel(upper_32_bits(r->ring_dma), r->bar + RAW_BASE + RAW_RING_HI);
	writel(NELEM, r->bar + RAW_BASE + RAW_NELEM);
	err = raw_ctrl(r, RAW_ON | dbc);
	if (err) {
		dev_err(&pdev->dev, "the card refused the raw DBC %u\n", dbc);
		goto free;
	}
	err = run(r, 1, &qd1_stats);
	if (!err)
		err = run(r, QD_MAX, &qd32_stats);
	raw_ctrl(r, dbc);
	result = err;
	dev_info(&pdev->dev,
		 "raw round trips (%s): QD1 %lu in %lu ns, %lu stalls; QD32 %lu in %lu ns, %lu stalls (%d)\n",
		 pdev->msix_enabled ? "MSI-X" : "MSI", qd1_jobs, qd1_ns, qd1_stalls,
		 qd32_jobs, qd32_ns, qd32_stalls, err);
	return 0;	/* stay bound: the results are in the parameters */

free:
	if (r->buf)
		dma_free_coherent(&pdev->dev, QD_MAX * XFER, r->buf, r->buf_dma);
	if (r->req)
		dma_free_coherent(&pdev->dev, NELEM * (64 + 4), r->req, r->ring_dma);
	r->req = NULL;
	r->buf = NULL;
	free_irq(r->irq, r);
vectors:
	pci_free_irq_vectors(pdev);
unmap:
	pci_iounmap(pdev, r->bar);
disable:
	pci_disable_device(pdev);
out:
	result = err;
	return err;
}

static void rawrt_remove(struct pci_dev *pdev)
{
	struct rawrt *r = pci_get_drvdata(pdev);

	free_irq(r->irq, r);
	dma_free_coherent(&pdev->dev, QD_MAX * XFER, r->buf, r->buf_dma);
	dma_free_coherent(&pdev->dev, NELEM * (64 + 4), r->req, r->ring_dma);
	pci_free_irq_vectors(pdev);
	pci_iounmap(pdev, r->bar);
	pci_clear_master(pdev);
	pci_disable_device(pdev);
}

static const struct pci_device_id rawrt_ids[] = {
	{ PCI_DEVICE(0x17cb, 0xa100) },
	{ }
};
MODULE_DEVICE_TABLE(pci, rawrt_ids);

static struct pci_driver rawrt_driver = {
	.name = "qaic_rawrt",
	.id_table = rawrt_ids,
	.probe = rawrt_probe,
	.remove = rawrt_remove,
};
module_pci_driver(rawrt_driver);

MODULE_DESCRIPTION("The raw DBC round trip of the bench's emulated AIC100");
MODULE_LICENSE("GPL");
