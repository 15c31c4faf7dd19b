// SPDX-License-Identifier: GPL-2.0-only
/*
 * Config space of the emulated AIC100: identity, read-only bits, 64-bit
 * BAR sizing, capability list, out-of-range accesses.
 */
#include <linux/pci_regs.h>
#include <stdlib.h>

#include "device.h"
#include "emu_test.h"

static struct emu_device dev;

static void setup(bool msix)
{
	emu_device_fini(&dev);
	if (emu_device_init(&dev, msix))
		abort();
}

static uint64_t rd(uint64_t off, uint32_t size)
{
	return emu_cfg_read(&dev, off, size);
}

static void wr(uint64_t off, uint32_t size, uint64_t val)
{
	emu_cfg_write(&dev, off, size, val);
}

static void test_identity(void)
{
	setup(true);
	CHECK_EQ(rd(PCI_VENDOR_ID, 2), 0x17cb);
	CHECK_EQ(rd(PCI_DEVICE_ID, 2), 0xa100);
	CHECK_EQ(rd(PCI_VENDOR_ID, 4), 0xa10017cb);
	CHECK_EQ(rd(PCI_CLASS_REVISION, 4) >> 8, 0x120000);
	CHECK_EQ(rd(PCI_REVISION_ID, 1), EMU_PCI_REVISION);
	CHECK_EQ(rd(PCI_HEADER_TYPE, 1), PCI_HEADER_TYPE_NORMAL);
	CHECK_EQ(rd(PCI_SUBSYSTEM_VENDOR_ID, 2), 0x17cb);
	CHECK_EQ(rd(PCI_SUBSYSTEM_ID, 2), EMU_PCI_SUBSYS_ID);
	/* virt-pci may read 8 bytes at once on 64-bit. */
	CHECK_EQ(rd(PCI_VENDOR_ID, 8),
		 rd(PCI_VENDOR_ID, 4) | (rd(PCI_COMMAND, 4) << 32));
	CHECK(rd(PCI_STATUS, 2) & PCI_STATUS_CAP_LIST);
	CHECK_EQ(dev.counters.cfg_rejected, 0);
}

/* An AIC080 says so in its ids, read only, and keeps them across an FLR. */
static void test_aic080_identity(void)
{
	setup(true);
	emu_pci_set_device_id(&dev.pci, EMU_PCI_DEVICE_ID_AIC080);
	CHECK_EQ(rd(PCI_DEVICE_ID, 2), 0xa080);
	CHECK_EQ(rd(PCI_SUBSYSTEM_ID, 2), 0xa080);
	wr(PCI_DEVICE_ID, 2, 0x1234);
	CHECK_EQ(rd(PCI_DEVICE_ID, 2), 0xa080);
	emu_pci_set_flr(&dev.pci, true);
	wr(EMU_CAP_PCIE + PCI_EXP_DEVCTL, 2, PCI_EXP_DEVCTL_BCR_FLR);
	CHECK_EQ(dev.counters.flrs, 1);
	CHECK_EQ(rd(PCI_DEVICE_ID, 2), 0xa080);
	CHECK_EQ(rd(PCI_SUBSYSTEM_ID, 2), 0xa080);
}

static void test_read_only_bits(void)
{
	setup(true);
	wr(PCI_VENDOR_ID, 4, 0x12345678);
	CHECK_EQ(rd(PCI_VENDOR_ID, 4), 0xa10017cb);
	wr(PCI_CLASS_REVISION, 4, 0xffffffff);
	CHECK_EQ(rd(PCI_CLASS_REVISION, 4), (0x120000 << 8) | EMU_PCI_REVISION);
	wr(PCI_CAPABILITY_LIST, 1, 0);
	CHECK_EQ(rd(PCI_CAPABILITY_LIST, 1), EMU_CAP_MSI);
	wr(PCI_INTERRUPT_PIN, 1, 1);
	CHECK_EQ(rd(PCI_INTERRUPT_PIN, 1), 0);

	/* Command: only the implemented enables stick; no I/O space. */
	wr(PCI_COMMAND, 2, 0xffff);
	CHECK_EQ(rd(PCI_COMMAND, 2),
		 PCI_COMMAND_MEMORY | PCI_COMMAND_MASTER | PCI_COMMAND_PARITY |
		 PCI_COMMAND_SERR | PCI_COMMAND_INTX_DISABLE);
	wr(PCI_COMMAND, 2, 0);
	CHECK_EQ(rd(PCI_COMMAND, 2), 0);

	/* Status: error bits are write-1-to-clear, the cap bit read-only. */
	dev.pci.cfg[PCI_STATUS + 1] |= PCI_STATUS_REC_MASTER_ABORT >> 8;
	wr(PCI_STATUS, 2, 0xffff);
	CHECK_EQ(rd(PCI_STATUS, 2), PCI_STATUS_CAP_LIST);

	/* Interrupt line and cache line size are scratch registers. */
	wr(PCI_INTERRUPT_LINE, 1, 0x5a);
	CHECK_EQ(rd(PCI_INTERRUPT_LINE, 1), 0x5a);

	/* No expansion ROM. */
	wr(PCI_ROM_ADDRESS, 4, 0xffffffff);
	CHECK_EQ(rd(PCI_ROM_ADDRESS, 4), 0);
}

static void check_bar_sizing(unsigned int bar, uint64_t size)
{
	unsigned int off = PCI_BASE_ADDRESS_0 + 4 * bar;
	uint64_t lo, hi, mask;

	lo = rd(off, 4);
	CHECK_EQ(lo & ~PCI_BASE_ADDRESS_MEM_MASK, PCI_BASE_ADDRESS_MEM_TYPE_64);

	wr(off, 4, 0xffffffff);
	wr(off + 4, 4, 0xffffffff);
	lo = rd(off, 4);
	hi = rd(off + 4, 4);
	CHECK_EQ(lo & ~PCI_BASE_ADDRESS_MEM_MASK, PCI_BASE_ADDRESS_MEM_TYPE_64);
	mask = (hi << 32) | (lo & PCI_BASE_ADDRESS_MEM_MASK);
	CHECK_EQ(~mask + 1, size);

	/* Program an address: it reads back, low bits still the type. */
	wr(off, 4, 0xf0200000);
	wr(off + 4, 4, 0x1);
	CHECK_EQ(rd(off, 4), 0xf0200000 | PCI_BASE_ADDRESS_MEM_TYPE_64);
	CHECK_EQ(rd(off + 4, 4), 1);
	/* Bits below the size are not writable. */
	wr(off, 4, (uint32_t)(size / 2) | 0xf0000000);
	CHECK_EQ(rd(off, 4), 0xf0000000 | PCI_BASE_ADDRESS_MEM_TYPE_64);
}

static void test_bar_sizing(void)
{
	setup(true);
	check_bar_sizing(0, 4096);
	check_bar_sizing(2, 2 * 1024 * 1024);
	check_bar_sizing(4, 64 * 1024);
	CHECK(EMU_BAR2_SIZE >= 0x20000 + 16 * 0x1000);
}

/* Walk the list as the kernel does and report which ids were found. */
static unsigned int walk_caps(bool *msi, bool *pcie, bool *msix)
{
	unsigned int pos = rd(PCI_CAPABILITY_LIST, 1), n = 0;

	*msi = *pcie = *msix = false;
	while (pos) {
		uint8_t id = rd(pos + PCI_CAP_LIST_ID, 1);

		CHECK(pos >= 0x40 && pos < 0x100 && !(pos & 3));
		if (++n > 48 || pos < 0x40 || pos >= 0x100)
			break;
		*msi |= id == PCI_CAP_ID_MSI;
		*pcie |= id == PCI_CAP_ID_EXP;
		*msix |= id == PCI_CAP_ID_MSIX;
		pos = rd(pos + PCI_CAP_LIST_NEXT, 1);
	}
	return n;
}

static void test_capabilities(void)
{
	bool msi, pcie, msix;

	setup(true);
	CHECK_EQ(walk_caps(&msi, &pcie, &msix), 3);
	CHECK(msi && pcie && msix);

	setup(false);	/* --no-msix */
	CHECK_EQ(walk_caps(&msi, &pcie, &msix), 2);
	CHECK(msi && pcie && !msix);
	CHECK_EQ(rd(EMU_CAP_MSIX, 4), 0);
}

static void test_msi_cap(void)
{
	unsigned int c = EMU_CAP_MSI;
	uint16_t flags;

	setup(true);
	flags = rd(c + PCI_MSI_FLAGS, 2);
	CHECK(flags & PCI_MSI_FLAGS_64BIT);
	CHECK(flags & PCI_MSI_FLAGS_MASKBIT);
	CHECK_EQ((flags & PCI_MSI_FLAGS_QMASK) >> 1, 5);	/* 32 vectors */

	wr(c + PCI_MSI_FLAGS, 2, 0xffff);
	CHECK_EQ(rd(c + PCI_MSI_FLAGS, 2),
		 flags | PCI_MSI_FLAGS_ENABLE | PCI_MSI_FLAGS_QSIZE);
	wr(c + PCI_MSI_ADDRESS_LO, 4, 0xffffffff);
	CHECK_EQ(rd(c + PCI_MSI_ADDRESS_LO, 4), 0xfffffffc);
	wr(c + PCI_MSI_DATA_64, 4, 0xffffffff);
	CHECK_EQ(rd(c + PCI_MSI_DATA_64, 4), 0xffff);
	wr(c + PCI_MSI_PENDING_64, 4, 0xffffffff);
	CHECK_EQ(rd(c + PCI_MSI_PENDING_64, 4), 0);
}

static void test_msix_cap(void)
{
	unsigned int c = EMU_CAP_MSIX;

	setup(true);
	CHECK_EQ(rd(c + PCI_MSIX_FLAGS, 2) & PCI_MSIX_FLAGS_QSIZE, 31);
	CHECK_EQ(rd(c + PCI_MSIX_TABLE, 4), EMU_MSIX_TABLE_OFF | 4);
	CHECK_EQ(rd(c + PCI_MSIX_PBA, 4), EMU_MSIX_PBA_OFF | 4);
	wr(c + PCI_MSIX_FLAGS, 2, 0xffff);
	CHECK_EQ(rd(c + PCI_MSIX_FLAGS, 2),
		 31 | PCI_MSIX_FLAGS_ENABLE | PCI_MSIX_FLAGS_MASKALL);
	wr(c + PCI_MSIX_TABLE, 4, 0);
	CHECK_EQ(rd(c + PCI_MSIX_TABLE, 4), EMU_MSIX_TABLE_OFF | 4);
}

static void test_pcie_cap(void)
{
	unsigned int c = EMU_CAP_PCIE;

	setup(true);
	CHECK_EQ((rd(c + PCI_EXP_FLAGS, 2) & PCI_EXP_FLAGS_TYPE) >> 4,
		 PCI_EXP_TYPE_ENDPOINT);
	CHECK(!(rd(c + PCI_EXP_DEVCAP, 4) & PCI_EXP_DEVCAP_FLR));
	/* Initiate-FLR is not writable: AIC100 has no FLR. */
	wr(c + PCI_EXP_DEVCTL, 2, PCI_EXP_DEVCTL_BCR_FLR);
	CHECK(!(rd(c + PCI_EXP_DEVCTL, 2) & PCI_EXP_DEVCTL_BCR_FLR));
}

static void test_out_of_range(void)
{
	setup(true);
	/* Extended config space exists but holds no capability. */
	CHECK_EQ(rd(0x100, 4), 0);
	CHECK_EQ(dev.counters.cfg_rejected, 0);

	CHECK_EQ(rd(EMU_PCI_CFG_SIZE, 4), 0xffffffffffffffffULL);
	CHECK_EQ(rd(EMU_PCI_CFG_SIZE - 2, 4), 0xffffffffffffffffULL);
	CHECK_EQ(rd(0xffffffffffffffffULL, 1), 0xffffffffffffffffULL);
	CHECK_EQ(rd(0, 3), 0xffffffffffffffffULL);
	wr(EMU_PCI_CFG_SIZE, 4, 0);
	wr(PCI_COMMAND, 16, 0xffff);
	CHECK_EQ(rd(PCI_COMMAND, 2), 0);
	CHECK_EQ(dev.counters.cfg_rejected, 6);
	CHECK_EQ(dev.counters.cfg_reads, 6);
	CHECK_EQ(dev.counters.cfg_writes, 2);
}

int main(void)
{
	RUN(test_identity);
	RUN(test_aic080_identity);
	RUN(test_read_only_bits);
	RUN(test_bar_sizing);
	RUN(test_capabilities);
	RUN(test_msi_cap);
	RUN(test_msix_cap);
	RUN(test_pcie_cap);
	RUN(test_out_of_range);
	emu_device_fini(&dev);
	return emu_test_exit();
}
