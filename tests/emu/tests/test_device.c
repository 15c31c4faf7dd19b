// SPDX-License-Identifier: GPL-2.0-only
/*
 * Device glue: BAR register files, MSI-X table access, interrupt routing
 * (MSI-X, MSI, masking, dropping) and DMA bounds.
 */
#include <errno.h>
#include <linux/pci_regs.h>
#include <stdlib.h>
#include <string.h>

#include "device.h"
#include "emu_test.h"

static struct emu_device dev;

/* Interrupt sink that records what the device sends. */
struct sink_log {
	unsigned int count;
	struct emu_msi_msg last;
};

static struct sink_log sent;

static void record_msi(void *ctx, const struct emu_msi_msg *msg)
{
	struct sink_log *log = ctx;

	log->count++;
	log->last = *msg;
	dev.counters.irq_sent++;
}

static void setup(bool msix)
{
	struct emu_irq_sink sink = { .send = record_msi, .ctx = &sent };

	emu_device_fini(&dev);
	if (emu_device_init(&dev, msix))
		abort();
	emu_device_set_irq_sink(&dev, &sink);
	memset(&sent, 0, sizeof(sent));
}

static void enable(uint16_t cmd)
{
	emu_cfg_write(&dev, PCI_COMMAND, 2, cmd);
}

static uint32_t mmio_rd32(unsigned int bar, uint64_t off)
{
	uint32_t v;

	emu_mmio_read(&dev, bar, off, &v, sizeof(v));
	return v;
}

static void mmio_wr32(unsigned int bar, uint64_t off, uint32_t v)
{
	emu_mmio_write(&dev, bar, off, &v, sizeof(v));
}

static void test_register_files(void)
{
	uint8_t buf[16];

	setup(true);
	enable(PCI_COMMAND_MEMORY);
	CHECK_EQ(mmio_rd32(0, 0x100), 0);
	mmio_wr32(0, 0x100, 0xdeadbeef);
	CHECK_EQ(mmio_rd32(0, 0x100), 0xdeadbeef);
	/* DBC 15 response tail pointer, the last DBC register AIC100 has. */
	mmio_wr32(2, 0x20000 + 15 * 0x1000 + 0xc, 0x1234);
	CHECK_EQ(mmio_rd32(2, 0x20000 + 15 * 0x1000 + 0xc), 0x1234);
	mmio_wr32(4, 0x10, 7);
	CHECK_EQ(mmio_rd32(4, 0x10), 7);
	emu_mmio_memset(&dev, 2, 0x100, 0xab, sizeof(buf));
	emu_mmio_read(&dev, 2, 0x100, buf, sizeof(buf));
	CHECK(buf[0] == 0xab && buf[15] == 0xab);
	CHECK_EQ(dev.counters.mmio_reads[0], 2);
	CHECK_EQ(dev.counters.mmio_writes[0], 1);
	CHECK_EQ(dev.counters.mmio_reads[2], 2);
	CHECK_EQ(dev.counters.mmio_writes[2], 2);
	CHECK_EQ(dev.counters.mmio_rejected, 0);
}

static void test_mmio_rejected(void)
{
	setup(true);
	/* Memory decoding off: master abort, all-ones, counted as such. */
	CHECK_EQ(mmio_rd32(0, 0), 0xffffffff);
	CHECK_EQ(dev.counters.mmio_no_decode, 1);
	enable(PCI_COMMAND_MEMORY);
	CHECK_EQ(mmio_rd32(0, EMU_BAR0_SIZE - 2), 0xffffffff);
	CHECK_EQ(mmio_rd32(0, EMU_BAR0_SIZE), 0xffffffff);
	CHECK_EQ(mmio_rd32(1, 0), 0xffffffff);	/* upper half of BAR0 */
	CHECK_EQ(mmio_rd32(7, 0), 0xffffffff);
	CHECK_EQ(mmio_rd32(2, 0xfffffffffffffffcULL), 0xffffffff);
	mmio_wr32(0, EMU_BAR0_SIZE, 1);
	emu_mmio_memset(&dev, 2, EMU_BAR2_SIZE - 1, 0, 2);
	CHECK_EQ(dev.counters.mmio_rejected, 8);
	CHECK_EQ(dev.counters.mmio_no_decode, 1);
	CHECK_EQ(dev.counters.mmio_reads[0], 0);
}

/* --lose-decode-writes: the write turning decoding on is lost, once. */
static void test_lose_decode_writes(void)
{
	setup(true);
	dev.lose_decode_writes = 1;
	enable(PCI_COMMAND_MEMORY);
	CHECK_EQ(dev.counters.cfg_lost, 1);
	CHECK_EQ(mmio_rd32(0, 0), 0xffffffff);
	CHECK_EQ(dev.counters.mmio_no_decode, 1);
	enable(PCI_COMMAND_MEMORY);
	CHECK_EQ(dev.counters.cfg_lost, 1);
	CHECK_EQ(dev.counters.mmio_reads[0], 0);
	mmio_rd32(0, 0);
	CHECK_EQ(dev.counters.mmio_reads[0], 1);
}

static uint64_t msix_entry(unsigned int vec, unsigned int field)
{
	return EMU_MSIX_TABLE_OFF + vec * PCI_MSIX_ENTRY_SIZE + field;
}

static void program_msix(unsigned int vec, uint64_t addr, uint32_t data,
			 bool masked)
{
	mmio_wr32(4, msix_entry(vec, PCI_MSIX_ENTRY_LOWER_ADDR), (uint32_t)addr);
	mmio_wr32(4, msix_entry(vec, PCI_MSIX_ENTRY_UPPER_ADDR),
		  (uint32_t)(addr >> 32));
	mmio_wr32(4, msix_entry(vec, PCI_MSIX_ENTRY_DATA), data);
	mmio_wr32(4, msix_entry(vec, PCI_MSIX_ENTRY_VECTOR_CTRL), masked);
}

static void test_msix_table(void)
{
	uint64_t q;

	setup(true);
	enable(PCI_COMMAND_MEMORY);
	/* Out of reset every vector is masked. */
	CHECK_EQ(mmio_rd32(4, msix_entry(31, PCI_MSIX_ENTRY_VECTOR_CTRL)), 1);
	program_msix(3, 0x1000a0003ULL, 0x42, false);
	CHECK_EQ(mmio_rd32(4, msix_entry(3, PCI_MSIX_ENTRY_LOWER_ADDR)), 0xa0000);
	CHECK_EQ(mmio_rd32(4, msix_entry(3, PCI_MSIX_ENTRY_UPPER_ADDR)), 1);
	CHECK_EQ(mmio_rd32(4, msix_entry(3, PCI_MSIX_ENTRY_DATA)), 0x42);
	CHECK_EQ(mmio_rd32(4, msix_entry(3, PCI_MSIX_ENTRY_VECTOR_CTRL)), 0);
	/* Reserved vector control bits are read-only. */
	mmio_wr32(4, msix_entry(3, PCI_MSIX_ENTRY_VECTOR_CTRL), 0xfffffffe);
	CHECK_EQ(mmio_rd32(4, msix_entry(3, PCI_MSIX_ENTRY_VECTOR_CTRL)), 0);
	/* QWORD access works. */
	emu_mmio_read(&dev, 4, msix_entry(3, 0), &q, sizeof(q));
	CHECK_EQ(q, 0x1000a0000ULL);
	/* The PBA is read-only. */
	mmio_wr32(4, EMU_MSIX_PBA_OFF, 0xffffffff);
	CHECK_EQ(mmio_rd32(4, EMU_MSIX_PBA_OFF), 0);
	/* Straddling the end of the table is refused. */
	CHECK_EQ(mmio_rd32(4, EMU_MSIX_TABLE_OFF + EMU_MSIX_TABLE_SIZE - 2),
		 0xffffffff);
	CHECK_EQ(dev.counters.mmio_rejected, 1);
	/* The table is not in the register file below it. */
	CHECK_EQ(mmio_rd32(4, 0), 0);
}

static void test_irq_msix(void)
{
	unsigned int c = EMU_CAP_MSIX;

	setup(true);
	CHECK_EQ(emu_irq_raise(&dev, 0), EMU_IRQ_DROP);	/* nothing enabled */
	enable(PCI_COMMAND_MEMORY | PCI_COMMAND_MASTER);
	emu_cfg_write(&dev, c + PCI_MSIX_FLAGS, 2, PCI_MSIX_FLAGS_ENABLE);
	program_msix(1, 0xa0000, 77, false);
	program_msix(2, 0xa0000, 78, true);

	CHECK_EQ(emu_irq_raise(&dev, 1), EMU_IRQ_SEND);
	CHECK_EQ(sent.count, 1);
	CHECK_EQ(sent.last.addr, 0xa0000);
	CHECK_EQ(sent.last.data, 77);
	CHECK(sent.last.msix);

	/* Masked: pending bit, delivered when the guest unmasks. */
	CHECK_EQ(emu_irq_raise(&dev, 2), EMU_IRQ_PENDING);
	CHECK_EQ(mmio_rd32(4, EMU_MSIX_PBA_OFF), 1u << 2);
	CHECK_EQ(sent.count, 1);
	mmio_wr32(4, msix_entry(2, PCI_MSIX_ENTRY_VECTOR_CTRL), 0);
	CHECK_EQ(sent.count, 2);
	CHECK_EQ(sent.last.data, 78);
	CHECK_EQ(mmio_rd32(4, EMU_MSIX_PBA_OFF), 0);

	/* Function mask holds everything. */
	emu_cfg_write(&dev, c + PCI_MSIX_FLAGS, 2,
		      PCI_MSIX_FLAGS_ENABLE | PCI_MSIX_FLAGS_MASKALL);
	CHECK_EQ(emu_irq_raise(&dev, 1), EMU_IRQ_PENDING);
	emu_cfg_write(&dev, c + PCI_MSIX_FLAGS, 2, PCI_MSIX_FLAGS_ENABLE);
	CHECK_EQ(sent.count, 3);
	CHECK_EQ(sent.last.data, 77);

	CHECK_EQ(emu_irq_raise(&dev, 32), EMU_IRQ_DROP);
	/* No bus mastering: an MSI is a memory write, so nothing. */
	enable(PCI_COMMAND_MEMORY);
	CHECK_EQ(emu_irq_raise(&dev, 1), EMU_IRQ_DROP);
	CHECK_EQ(dev.counters.irq_dropped, 3);
	CHECK_EQ(dev.counters.irq_masked, 2);
	CHECK_EQ(dev.counters.irq_sent, 3);
}

static void test_irq_msi(void)
{
	unsigned int c = EMU_CAP_MSI;

	setup(false);
	enable(PCI_COMMAND_MEMORY | PCI_COMMAND_MASTER);
	emu_cfg_write(&dev, c + PCI_MSI_ADDRESS_LO, 4, 0xa0000);
	emu_cfg_write(&dev, c + PCI_MSI_ADDRESS_HI, 4, 0);
	emu_cfg_write(&dev, c + PCI_MSI_DATA_64, 2, 40);
	emu_cfg_write(&dev, c + PCI_MSI_FLAGS, 2, PCI_MSI_FLAGS_ENABLE);

	/* One vector granted: everything goes to vector 0, like AIC100. */
	CHECK_EQ(emu_irq_raise(&dev, 5), EMU_IRQ_SEND);
	CHECK_EQ(sent.last.data, 40);
	CHECK(!sent.last.msix);

	/* 32 granted: the vector is in the low data bits. */
	emu_cfg_write(&dev, c + PCI_MSI_DATA_64, 2, 64);
	emu_cfg_write(&dev, c + PCI_MSI_FLAGS, 2, PCI_MSI_FLAGS_ENABLE | (5 << 4));
	CHECK_EQ(emu_irq_raise(&dev, 5), EMU_IRQ_SEND);
	CHECK_EQ(sent.last.data, 64 | 5);
	CHECK_EQ(sent.last.addr, 0xa0000);

	/* Per-vector mask: pending until unmasked. */
	emu_cfg_write(&dev, c + PCI_MSI_MASK_64, 4, 1u << 7);
	CHECK_EQ(emu_irq_raise(&dev, 7), EMU_IRQ_PENDING);
	CHECK_EQ(emu_cfg_read(&dev, c + PCI_MSI_PENDING_64, 4), 1u << 7);
	CHECK_EQ(sent.count, 2);
	emu_cfg_write(&dev, c + PCI_MSI_MASK_64, 4, 0);
	CHECK_EQ(sent.count, 3);
	CHECK_EQ(sent.last.data, 64 | 7);
	CHECK_EQ(emu_cfg_read(&dev, c + PCI_MSI_PENDING_64, 4), 0);

	/* MSI-X is absent with --no-msix: BAR4 has no table. */
	emu_mmio_write(&dev, 4, EMU_MSIX_TABLE_OFF, "x", 1);
	CHECK_EQ(dev.counters.mmio_writes[4], 1);

	emu_cfg_write(&dev, c + PCI_MSI_FLAGS, 2, 0);
	CHECK_EQ(emu_irq_raise(&dev, 0), EMU_IRQ_DROP);
}

static void test_dma_bounds(void)
{
	const uint64_t base = 0x100000, size = 0x10000;
	uint8_t *mem = calloc(1, size);
	struct guest_mem gm;
	uint8_t buf[64];

	guest_mem_init(&gm);
	CHECK_EQ(guest_mem_add_host(&gm, mem, base, base, size, false), 0);
	setup(true);
	emu_device_set_guest_mem(&dev, &gm);
	memset(buf, 0x5a, sizeof(buf));

	/* No bus mastering yet. */
	CHECK_EQ(emu_dma_write(&dev, base, buf, 4), -EPERM);
	enable(PCI_COMMAND_MASTER);

	CHECK_EQ(emu_dma_write(&dev, base + 16, buf, sizeof(buf)), 0);
	CHECK_EQ(mem[16], 0x5a);
	CHECK_EQ(mem[16 + 63], 0x5a);
	CHECK_EQ(emu_dma_read(&dev, base + size - 8, buf, 8), 0);
	CHECK_EQ(emu_dma_write(&dev, base, buf, 0), 0);

	CHECK_EQ(emu_dma_read(&dev, base + size - 8, buf, 9), -EFAULT);
	CHECK_EQ(emu_dma_read(&dev, base - 1, buf, 2), -EFAULT);
	CHECK_EQ(emu_dma_read(&dev, base + size, buf, 1), -EFAULT);
	CHECK_EQ(emu_dma_read(&dev, 0, buf, 1), -EFAULT);
	/* Wrapping ranges must not sneak back into the region. */
	CHECK_EQ(emu_dma_write(&dev, 0xfffffffffffffff0ULL, buf, 0x20), -EFAULT);
	CHECK_EQ(emu_dma_read(&dev, base + 8, buf, 0xfffffffffffffff8ULL), -EFAULT);

	CHECK_EQ(dev.counters.dma_write_bytes, 64);
	CHECK_EQ(dev.counters.dma_read_bytes, 8);
	CHECK_EQ(dev.counters.dma_refused, 6);
	CHECK_EQ(dev.counters.dma_no_master, 1);

	/* No guest memory at all (before SET_MEM_TABLE). */
	emu_device_set_guest_mem(&dev, NULL);
	CHECK_EQ(emu_dma_read(&dev, base, buf, 1), -EFAULT);
	guest_mem_reset(&gm);
	free(mem);
}

static void test_guest_mem_regions(void)
{
	static uint8_t a[4096], b[4096];
	struct guest_mem gm;

	guest_mem_init(&gm);
	CHECK_EQ(guest_mem_add_host(&gm, a, 0x1000, 0x7000, sizeof(a), false), 0);
	CHECK_EQ(guest_mem_add_host(&gm, b, 0x2000, 0x8000, sizeof(b), false), 0);
	CHECK(guest_mem_gpa(&gm, 0x1ff0, 16) == a + 0xff0);
	CHECK(guest_mem_gpa(&gm, 0x2000, 16) == b);
	/* Adjacent regions are separate mappings: no access spans them. */
	CHECK(!guest_mem_gpa(&gm, 0x1ff0, 32));
	CHECK(guest_mem_uva(&gm, 0x8010, 4) == b + 0x10);
	CHECK(!guest_mem_uva(&gm, 0x1000, 4));
	CHECK_EQ(guest_mem_add_host(&gm, a, 0xfffffffffffff000ULL, 0, 0x2000,
				    false), -EINVAL);
	CHECK_EQ(guest_mem_add_host(&gm, a, 0x10000, 0, 0, false), -EINVAL);
	/* vhost-user's limit of 8 regions, and no overlaps. */
	CHECK_EQ(guest_mem_add_host(&gm, a, 0x1800, 0, 16, false), -EEXIST);
	CHECK_EQ(guest_mem_add_host(&gm, a, 0x0, 0, 0x1001, false), -EEXIST);
	for (unsigned int i = 0; i < 6; i++)
		CHECK_EQ(guest_mem_add_host(&gm, a, 0x100000 * (i + 1), 0, 16,
					    false), 0);
	CHECK_EQ(guest_mem_add_host(&gm, a, 0x10000000, 0, 16, false), -ENOSPC);
	guest_mem_reset(&gm);
}

/*
 * The IOMMU case of vfio-user: thousands of one-page maps, added in no
 * particular order, looked up and removed by IOVA.
 */
static void test_guest_mem_many(void)
{
	static uint8_t page[4096];
	const unsigned int n = 5000;
	struct guest_mem gm;
	unsigned int i, k;

	guest_mem_init(&gm);
	guest_mem_set_max_regions(&gm, n);
	/* 7 is coprime to n: every slot once, out of order. */
	for (i = 0, k = 0; i < n; i++, k = (k + 7) % n)
		CHECK_EQ(guest_mem_add_host(&gm, page, 0x100000000ull + 0x2000ull * k,
					    0, sizeof(page), k == 3), 0);
	CHECK_EQ(gm.nr_regions, n);
	CHECK_EQ(guest_mem_add_host(&gm, page, 0x10, 0, 16, false), -ENOSPC);
	for (i = 1; i < n; i++)
		CHECK(gm.regions[i - 1].gpa < gm.regions[i].gpa);
	CHECK(guest_mem_gpa(&gm, 0x100000000ull + 0x2000 * 4999 + 4000, 96) ==
	      page + 4000);
	CHECK(guest_mem_find(&gm, 0x100006000ull, 1)->read_only);
	/* The gap between two maps, and a range running into it. */
	CHECK(!guest_mem_find(&gm, 0x100001000ull, 1));
	CHECK(!guest_mem_find(&gm, 0x100000ff0ull, 32));
	CHECK(!guest_mem_find(&gm, 0xfffffffffffffff0ull, 0x20));
	CHECK(!guest_mem_find(&gm, 0x100000010ull, UINT64_MAX));

	/* Remove one, a straddling range (nothing), then a span of many. */
	CHECK_EQ(guest_mem_remove(&gm, 0x100002000ull, 0x1000), 1);
	CHECK(!guest_mem_find(&gm, 0x100002000ull, 1));
	CHECK_EQ(guest_mem_remove(&gm, 0x100000800ull, 0x1000), -EINVAL);
	CHECK_EQ(guest_mem_remove(&gm, 0x100004000ull, 0x2800), -EINVAL);
	CHECK_EQ(guest_mem_remove(&gm, 0x100003000ull, 0x1000), 0);
	CHECK_EQ(guest_mem_remove(&gm, 0x100000000ull, 0x20000), 15);
	CHECK_EQ(gm.nr_regions, n - 16);
	CHECK(guest_mem_find(&gm, 0x100020000ull, 4096));
	CHECK_EQ(guest_mem_remove(&gm, 2, UINT64_MAX), -EINVAL);
	CHECK_EQ(guest_mem_remove(&gm, 0, UINT64_MAX), n - 16);
	CHECK_EQ(gm.nr_regions, 0);
	guest_mem_reset(&gm);
}

static unsigned int flr_hook_calls;

static void count_flr(void *ctx)
{
	unsigned int *calls = ctx;

	(*calls)++;
}

/*
 * Initiate FLR resets config space and the register files and calls the
 * models' hook, once offered; without the offer the bit does nothing.
 */
static void test_flr(void)
{
	const uint64_t devcap = EMU_CAP_PCIE + PCI_EXP_DEVCAP;
	const uint64_t devctl = EMU_CAP_PCIE + PCI_EXP_DEVCTL;

	setup(true);
	flr_hook_calls = 0;
	emu_device_set_flr_hook(&dev, count_flr, &flr_hook_calls);
	CHECK_EQ(emu_cfg_read(&dev, devcap, 4) & PCI_EXP_DEVCAP_FLR, 0);
	enable(PCI_COMMAND_MEMORY | PCI_COMMAND_MASTER);
	emu_cfg_write(&dev, devctl, 2, PCI_EXP_DEVCTL_BCR_FLR);
	CHECK_EQ(flr_hook_calls, 0);
	CHECK_EQ(dev.counters.flrs, 0);
	CHECK_EQ(emu_cfg_read(&dev, PCI_COMMAND, 2), PCI_COMMAND_MEMORY | PCI_COMMAND_MASTER);

	emu_pci_set_flr(&dev.pci, true);
	CHECK(emu_cfg_read(&dev, devcap, 4) & PCI_EXP_DEVCAP_FLR);
	mmio_wr32(4, 0x100, 0xdeadbeef);
	/* A 4-byte write of Device Control and Status, then the byte alone */
	emu_cfg_write(&dev, devctl, 4, PCI_EXP_DEVCTL_BCR_FLR);
	CHECK_EQ(flr_hook_calls, 1);
	CHECK_EQ(dev.counters.flrs, 1);
	CHECK_EQ(emu_cfg_read(&dev, PCI_COMMAND, 2), 0);
	/* Memory decode is off after the reset, as config space says */
	CHECK_EQ(mmio_rd32(4, 0x100), 0xffffffff);
	enable(PCI_COMMAND_MEMORY);
	CHECK_EQ(mmio_rd32(4, 0x100), 0);
	CHECK(emu_cfg_read(&dev, devcap, 4) & PCI_EXP_DEVCAP_FLR);
	CHECK_EQ(emu_cfg_read(&dev, devctl, 2) & PCI_EXP_DEVCTL_BCR_FLR, 0);
	emu_cfg_write(&dev, devctl + 1, 1, PCI_EXP_DEVCTL_BCR_FLR >> 8);
	CHECK_EQ(flr_hook_calls, 2);
	/* Other bits of Device Control are plain writes */
	emu_cfg_write(&dev, devctl, 2, PCI_EXP_DEVCTL_CERE);
	CHECK_EQ(flr_hook_calls, 2);
	CHECK_EQ(emu_cfg_read(&dev, devctl, 2) & PCI_EXP_DEVCTL_CERE, PCI_EXP_DEVCTL_CERE);
}

/* A card that fell off the bus: all-ones, writes lost, no MSI, no DMA */
static void test_fall_off(void)
{
	uint8_t buf[8];

	setup(true);
	enable(PCI_COMMAND_MEMORY | PCI_COMMAND_MASTER);
	mmio_wr32(4, 0x10, 0x1234);
	emu_device_fall_off(&dev);
	CHECK_EQ(emu_cfg_read(&dev, PCI_VENDOR_ID, 2), 0xffff);
	CHECK_EQ(emu_cfg_read(&dev, PCI_VENDOR_ID, 4), 0xffffffff);
	CHECK_EQ(mmio_rd32(4, 0x10), 0xffffffff);
	mmio_wr32(4, 0x10, 0x5678);
	emu_cfg_write(&dev, PCI_COMMAND, 2, 0);
	emu_irq_raise(&dev, 0);
	CHECK_EQ(sent.count, 0);
	CHECK(emu_dma_read(&dev, 0x1000, buf, sizeof(buf)) < 0);
	CHECK_EQ(dev.counters.dead_accesses, 5);
	/* The models go on unseen: the register file kept its value */
	dev.dead = false;
	CHECK_EQ(mmio_rd32(4, 0x10), 0x1234);
}

int main(void)
{
	RUN(test_register_files);
	RUN(test_mmio_rejected);
	RUN(test_lose_decode_writes);
	RUN(test_msix_table);
	RUN(test_irq_msix);
	RUN(test_irq_msi);
	RUN(test_dma_bounds);
	RUN(test_guest_mem_regions);
	RUN(test_guest_mem_many);
	RUN(test_flr);
	RUN(test_fall_off);
	emu_device_fini(&dev);
	return emu_test_exit();
}
