// SPDX-License-Identifier: GPL-2.0-only
/*
 * virtio_pcidev device side: turns cmd-queue messages into config and BAR
 * accesses on the emulated device, and device interrupts into irq-queue
 * messages.
 *
 * Facts about the frontend (arch/um/drivers/virt-pci.c, Linux 6.12):
 *  - config reads always post an 8-byte reply buffer whatever the size;
 *  - BAR reads post exactly @size bytes; BAR writes put the data after the
 *    header, in the same or in a second descriptor;
 *  - reads wait for the answer with a timeout (virt_pci.max_delay_us), so
 *    the queue is served as soon as it is kicked;
 *  - posted writes are only freed when the guest sees them used, and a
 *    full queue drops writes silently: every batch is completed and the
 *    guest notified before we go back to poll();
 *  - memset_io() on a BAR is sent with op CFG_WRITE (not MMIO_MEMSET), the
 *    BAR number set and a single data byte; see vpci_cfg_write();
 *  - the MSI message is the data value the guest programmed (the Linux irq
 *    number), 16 bits for MSI and 32 bits for MSI-X.
 */
#include <string.h>

#include "virtio_pcidev.h"
#include "le_bytes.h"

static bool cfg_size_ok(uint32_t size)
{
	return size == 1 || size == 2 || size == 4 || size == 8;
}

static size_t vpci_bad(struct emu_device *dev, const struct virtio_pcidev_msg *m,
		       const char *why)
{
	dev->counters.cmd_bad++;
	emu_log(dev, "virtio_pcidev op %u bar %u size %u: %s", m->op, m->bar,
		m->size, why);
	return 0;
}

static size_t vpci_cfg_read(struct emu_device *dev,
			    const struct virtio_pcidev_msg *m, uint8_t *reply,
			    size_t reply_cap)
{
	uint64_t val;

	if (!cfg_size_ok(m->size) || m->size > reply_cap)
		return vpci_bad(dev, m, "bad config read size");
	val = emu_cfg_read(dev, m->addr, m->size);
	put_le_bytes(reply, val, m->size);
	return m->size;
}

/*
 * virt-pci's memset_io() (um_pci_bar_set) sends CFG_WRITE with the BAR
 * number and one data byte. A real config write has bar 0 and size 1, 2, 4
 * or 8; anything else is taken as that memset. A memset of 1/2/4/8 bytes
 * on BAR0 is indistinguishable from a config write and is taken as one.
 */
static size_t vpci_cfg_write(struct emu_device *dev,
			     const struct virtio_pcidev_msg *m,
			     const uint8_t *data, size_t data_len)
{
	if (m->bar || !cfg_size_ok(m->size)) {
		if (data_len < 1)
			return vpci_bad(dev, m, "memset without a value");
		emu_mmio_memset(dev, m->bar, m->addr, data[0], m->size);
		return 0;
	}
	if (data_len < m->size)
		return vpci_bad(dev, m, "config write shorter than its size");
	emu_cfg_write(dev, m->addr, m->size, get_le_bytes(data, m->size));
	return 0;
}

static size_t vpci_mmio_read(struct emu_device *dev,
			     const struct virtio_pcidev_msg *m, uint8_t *reply,
			     size_t reply_cap)
{
	if (!m->size || m->size > reply_cap)
		return vpci_bad(dev, m, "bad BAR read size");
	emu_mmio_read(dev, m->bar, m->addr, reply, m->size);
	return m->size;
}

static size_t vpci_mmio_write(struct emu_device *dev,
			      const struct virtio_pcidev_msg *m,
			      const uint8_t *data, size_t data_len)
{
	if (!m->size || data_len < m->size)
		return vpci_bad(dev, m, "BAR write shorter than its size");
	emu_mmio_write(dev, m->bar, m->addr, data, m->size);
	return 0;
}

static size_t vpci_mmio_memset(struct emu_device *dev,
			       const struct virtio_pcidev_msg *m,
			       const uint8_t *data, size_t data_len)
{
	if (data_len < 1)
		return vpci_bad(dev, m, "memset without a value");
	emu_mmio_memset(dev, m->bar, m->addr, data[0], m->size);
	return 0;
}

size_t vpci_handle_msg(struct emu_device *dev, const void *req,
		       size_t req_len, void *reply, size_t reply_cap)
{
	const uint8_t *data = (const uint8_t *)req + VPCI_HDR_SIZE;
	struct virtio_pcidev_msg hdr;
	const struct virtio_pcidev_msg *m = &hdr;
	size_t data_len;

	if (req_len < VPCI_HDR_SIZE) {
		dev->counters.cmd_bad++;
		emu_log(dev, "virtio_pcidev message of %zu bytes", req_len);
		return 0;
	}
	/* @req may be unaligned; the header is copied, the data used in place. */
	memcpy(&hdr, req, VPCI_HDR_SIZE);
	data_len = req_len - VPCI_HDR_SIZE;

	switch (m->op) {
	case VIRTIO_PCIDEV_OP_CFG_READ:
		return vpci_cfg_read(dev, m, reply, reply_cap);
	case VIRTIO_PCIDEV_OP_CFG_WRITE:
		return vpci_cfg_write(dev, m, data, data_len);
	case VIRTIO_PCIDEV_OP_MMIO_READ:
		return vpci_mmio_read(dev, m, reply, reply_cap);
	case VIRTIO_PCIDEV_OP_MMIO_WRITE:
		return vpci_mmio_write(dev, m, data, data_len);
	case VIRTIO_PCIDEV_OP_MMIO_MEMSET:
		return vpci_mmio_memset(dev, m, data, data_len);
	default:
		return vpci_bad(dev, m, "unknown op");
	}
}

static void vpci_serve_chain(struct vpci *p, const struct vu_chain *c,
			     struct vu_vring *vr)
{
	uint64_t req_len, reply_cap;
	size_t n = 0;

	if (c->out_len > sizeof(p->req)) {
		p->dev->counters.cmd_bad++;
		emu_log(p->dev, "virtio_pcidev request of %llu bytes",
			(unsigned long long)c->out_len);
	} else {
		req_len = vu_iov_to_buf(c->out, c->nr_out, p->req, c->out_len);
		reply_cap = c->in_len < sizeof(p->reply) ? c->in_len :
							   sizeof(p->reply);
		n = vpci_handle_msg(p->dev, p->req, req_len, p->reply, reply_cap);
		n = vu_buf_to_iov(c->in, c->nr_in, p->reply, n);
	}
	vu_vring_push(vr, c->head, (uint32_t)n);
}

void vpci_process_cmd_queue(struct vpci *p)
{
	struct vu_vring *vr = vu_vring(p->vu, VPCI_CMD_VQ);
	struct vu_chain c;
	bool served = false;

	if (!vr)
		return;
	while (vu_vring_pop(p->vu, vr, &c)) {
		vpci_serve_chain(p, &c, vr);
		served = true;
	}
	if (served)
		vu_vring_notify(p->vu, vr);
}

/* Write @msg into the next irq buffer; false if the guest posted none. */
static bool vpci_deliver_msi(struct vpci *p, const struct emu_msi_msg *msg)
{
	struct vu_vring *vr = vu_vring(p->vu, VPCI_IRQ_VQ);
	struct virtio_pcidev_msg hdr = {
		.op = VIRTIO_PCIDEV_OP_MSI,
		.size = msg->msix ? 4 : 2,
		.addr = msg->addr,
	};
	uint8_t buf[VPCI_HDR_SIZE + sizeof(uint32_t)] = { 0 };
	uint32_t size = hdr.size;
	struct vu_chain c;

	memcpy(buf, &hdr, VPCI_HDR_SIZE);
	put_le_bytes(buf + VPCI_HDR_SIZE, msg->data, size);

	while (vr && vu_vring_pop(p->vu, vr, &c)) {
		if (c.in_len < VPCI_HDR_SIZE + size) {
			p->dev->counters.cmd_bad++;
			vu_vring_push(vr, c.head, 0);
			continue;
		}
		vu_buf_to_iov(c.in, c.nr_in, buf, VPCI_HDR_SIZE + size);
		vu_vring_push(vr, c.head, (uint32_t)(VPCI_HDR_SIZE + size));
		vu_vring_notify(p->vu, vr);
		p->dev->counters.irq_sent++;
		emu_log(p->dev, "%s addr %#llx data %#x sent", msg->msix ?
			"MSI-X" : "MSI", (unsigned long long)msg->addr, msg->data);
		return true;
	}
	return false;
}

/*
 * MSIs are edge events: a message identical to one already waiting adds
 * nothing, so the backlog only grows with distinct messages.
 */
static void vpci_backlog_add(struct vpci *p, const struct emu_msi_msg *msg)
{
	unsigned int i;

	for (i = 0; i < p->backlog_len; i++) {
		if (p->backlog[i].addr == msg->addr &&
		    p->backlog[i].data == msg->data &&
		    p->backlog[i].msix == msg->msix)
			return;
	}
	if (p->backlog_len == VPCI_IRQ_BACKLOG) {
		p->dev->counters.irq_lost++;
		emu_log(p->dev, "irq backlog full, MSI data %#x lost", msg->data);
		return;
	}
	p->backlog[p->backlog_len++] = *msg;
	p->dev->counters.irq_deferred++;
}

void vpci_flush_irqs(struct vpci *p)
{
	unsigned int sent = 0;

	while (sent < p->backlog_len && vpci_deliver_msi(p, &p->backlog[sent]))
		sent++;
	memmove(p->backlog, &p->backlog[sent],
		(p->backlog_len - sent) * sizeof(p->backlog[0]));
	p->backlog_len -= sent;
}

/* emu_irq_sink: keep MSIs in order behind any backlog. */
static void vpci_send_msi(void *ctx, const struct emu_msi_msg *msg)
{
	struct vpci *p = ctx;

	if (p->backlog_len)
		vpci_flush_irqs(p);
	if (p->backlog_len || !vpci_deliver_msi(p, msg))
		vpci_backlog_add(p, msg);
}

static void vpci_vring_kick(void *ctx, struct vu_dev *vu, struct vu_vring *vr)
{
	struct vpci *p = ctx;

	(void)vu;
	if (vr->index == VPCI_CMD_VQ)
		vpci_process_cmd_queue(p);
	else if (vr->index == VPCI_IRQ_VQ)
		vpci_flush_irqs(p);
}

const struct vu_ops vpci_vu_ops = {
	.vring_kick = vpci_vring_kick,
};

void vpci_init(struct vpci *p, struct emu_device *dev, struct vu_dev *vu)
{
	struct emu_irq_sink sink = { .send = vpci_send_msi, .ctx = p };

	p->dev = dev;
	p->vu = vu;
	p->backlog_len = 0;
	emu_device_set_irq_sink(dev, &sink);
	emu_device_set_guest_mem(dev, &vu->mem);
}
