// SPDX-License-Identifier: GPL-2.0-only
/*
 * virtio_pcidev message handling: messages as virt-pci builds them are fed
 * to the dispatcher; replies and counters are checked.
 */
#include <linux/pci_regs.h>
#include <stdlib.h>
#include <string.h>

#include "device.h"
#include "emu_test.h"
#include "virtio_pcidev.h"

static struct emu_device dev;

/* A message buffer as virt-pci lays it out: header, then up to 8 bytes. */
struct msg {
	struct virtio_pcidev_msg hdr;
	uint8_t data[8];
};

static size_t send_msg(uint8_t op, uint8_t bar, uint32_t size, uint64_t addr,
		       uint64_t val, size_t data_len, void *reply,
		       size_t reply_cap)
{
	struct msg m = {
		.hdr = { .op = op, .bar = bar, .size = size, .addr = addr },
	};

	memcpy(m.data, &val, sizeof(val));
	return vpci_handle_msg(&dev, &m, sizeof(m.hdr) + data_len, reply,
			       reply_cap);
}

static uint64_t cfg_read(uint64_t off, uint32_t size, size_t *n)
{
	uint64_t v = 0;

	/* virt-pci posts an 8-byte buffer for every config read. */
	*n = send_msg(VIRTIO_PCIDEV_OP_CFG_READ, 0, size, off, 0, 0, &v, 8);
	return v;
}

static void setup(void)
{
	emu_device_fini(&dev);
	if (emu_device_init(&dev, true))
		abort();
}

static void test_cfg_read(void)
{
	size_t n;

	setup();
	CHECK_EQ(cfg_read(PCI_VENDOR_ID, 4, &n), 0xa10017cb);
	CHECK_EQ(n, 4);
	CHECK_EQ(cfg_read(PCI_DEVICE_ID, 2, &n), 0xa100);
	CHECK_EQ(n, 2);
	CHECK_EQ(cfg_read(PCI_CLASS_DEVICE, 2, &n), 0x1200);
	CHECK_EQ(cfg_read(PCI_VENDOR_ID, 8, &n) & 0xffffffff, 0xa10017cb);
	CHECK_EQ(n, 8);
	CHECK_EQ(dev.counters.cfg_reads, 4);
	/* Out of config space: all-ones, counted by the device. */
	CHECK_EQ(cfg_read(0x2000, 4, &n), 0xffffffff);
	CHECK_EQ(dev.counters.cfg_rejected, 1);
	/* Impossible sizes are malformed messages. */
	cfg_read(0, 3, &n);
	CHECK_EQ(n, 0);
	CHECK_EQ(dev.counters.cmd_bad, 1);
}

static void test_cfg_write(void)
{
	size_t n;

	setup();
	send_msg(VIRTIO_PCIDEV_OP_CFG_WRITE, 0, 2, PCI_COMMAND,
		 PCI_COMMAND_MEMORY, 8, NULL, 0);
	CHECK_EQ(cfg_read(PCI_COMMAND, 2, &n), PCI_COMMAND_MEMORY);
	CHECK_EQ(dev.counters.cfg_writes, 1);
	/* Data shorter than the size: refused. */
	send_msg(VIRTIO_PCIDEV_OP_CFG_WRITE, 0, 4, PCI_COMMAND, 0, 2, NULL, 0);
	CHECK_EQ(cfg_read(PCI_COMMAND, 2, &n), PCI_COMMAND_MEMORY);
	CHECK_EQ(dev.counters.cmd_bad, 1);
}

static void test_mmio(void)
{
	uint32_t v = 0;
	uint8_t big[256];
	size_t n;

	setup();
	send_msg(VIRTIO_PCIDEV_OP_CFG_WRITE, 0, 2, PCI_COMMAND,
		 PCI_COMMAND_MEMORY, 8, NULL, 0);
	send_msg(VIRTIO_PCIDEV_OP_MMIO_WRITE, 2, 4, 0x20004, 0xcafe, 4, NULL, 0);
	n = send_msg(VIRTIO_PCIDEV_OP_MMIO_READ, 2, 4, 0x20004, 0, 0, &v, 4);
	CHECK_EQ(n, 4);
	CHECK_EQ(v, 0xcafe);
	n = send_msg(VIRTIO_PCIDEV_OP_MMIO_READ, 0, 4, 0x0, 0, 0, &v, 4);
	CHECK_EQ(v, 0);
	CHECK_EQ(dev.counters.mmio_writes[2], 1);
	CHECK_EQ(dev.counters.mmio_reads[2], 1);
	CHECK_EQ(dev.counters.mmio_reads[0], 1);

	/* memcpy_fromio(): one read of any size. */
	n = send_msg(VIRTIO_PCIDEV_OP_MMIO_READ, 2, sizeof(big), 0x20000, 0, 0,
		     big, sizeof(big));
	CHECK_EQ(n, sizeof(big));
	CHECK_EQ(big[4], 0xfe);

	/* Reply buffer smaller than the read: malformed, nothing written. */
	n = send_msg(VIRTIO_PCIDEV_OP_MMIO_READ, 2, 8, 0x20000, 0, 0, &v, 4);
	CHECK_EQ(n, 0);
	/* Write with missing data. */
	send_msg(VIRTIO_PCIDEV_OP_MMIO_WRITE, 2, 8, 0x20000, 0, 4, NULL, 0);
	/* Out of the BAR: the device rejects it, answering all-ones. */
	n = send_msg(VIRTIO_PCIDEV_OP_MMIO_READ, 0, 4, EMU_BAR0_SIZE, 0, 0, &v, 4);
	CHECK_EQ(n, 4);
	CHECK_EQ(v, 0xffffffff);
	CHECK_EQ(dev.counters.cmd_bad, 2);
	CHECK_EQ(dev.counters.mmio_rejected, 1);
}

static void test_memset(void)
{
	uint8_t out[32];
	size_t n;

	setup();
	send_msg(VIRTIO_PCIDEV_OP_CFG_WRITE, 0, 2, PCI_COMMAND,
		 PCI_COMMAND_MEMORY, 8, NULL, 0);
	send_msg(VIRTIO_PCIDEV_OP_MMIO_MEMSET, 2, 16, 0x100, 0x11, 1, NULL, 0);
	/* virt-pci's memset_io() quirk: CFG_WRITE with a BAR and one byte. */
	send_msg(VIRTIO_PCIDEV_OP_CFG_WRITE, 2, 16, 0x110, 0x22, 1, NULL, 0);
	n = send_msg(VIRTIO_PCIDEV_OP_MMIO_READ, 2, 32, 0x100, 0, 0, out, 32);
	CHECK_EQ(n, 32);
	CHECK(out[0] == 0x11 && out[15] == 0x11);
	CHECK(out[16] == 0x22 && out[31] == 0x22);
	CHECK_EQ(dev.counters.cfg_writes, 1);
	CHECK_EQ(dev.counters.mmio_writes[2], 2);
}

static void test_malformed(void)
{
	uint8_t junk[8] = { 0 };
	uint32_t v;

	setup();
	CHECK_EQ(vpci_handle_msg(&dev, junk, sizeof(junk), &v, 4), 0);
	send_msg(VIRTIO_PCIDEV_OP_RESERVED, 0, 4, 0, 0, 0, &v, 4);
	send_msg(VIRTIO_PCIDEV_OP_MSI, 0, 4, 0, 0, 4, &v, 4);
	send_msg(0xff, 0, 4, 0, 0, 0, &v, 4);
	CHECK_EQ(dev.counters.cmd_bad, 4);
}

int main(void)
{
	RUN(test_cfg_read);
	RUN(test_cfg_write);
	RUN(test_mmio);
	RUN(test_memset);
	RUN(test_malformed);
	emu_device_fini(&dev);
	return emu_test_exit();
}
