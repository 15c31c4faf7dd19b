// SPDX-License-Identifier: GPL-2.0-only
/*
 * Configuration space of the emulated AIC100.
 *
 * Config space is a byte array with two masks beside it: wmask says which
 * bits the guest may change, w1cmask which status bits it clears by writing
 * ones. Everything else is read-only, so a write to a read-only bit is
 * ignored by construction. BAR sizing falls out of the same rule: the low
 * bits of a BAR that encode its size are not writable, so writing all-ones
 * and reading back yields the size mask.
 */
#include <linux/pci_regs.h>
#include <string.h>

#include "card.h"
#include "pci.h"
#include "le_bytes.h"

/* Every BAR some card has (card.h): the device keeps registers for each. */
static const uint64_t bar_sizes[EMU_PCI_NUM_BARS] = {
	[0] = EMU_BAR0_SIZE,
	[1] = EMU_BAR0_SIZE,
	[2] = EMU_BAR2_SIZE,
	[4] = EMU_BAR4_SIZE,
};

/* Set the reset value and the writable bits of a register. */
static void cfg_reg(struct emu_pci *pci, unsigned int off, unsigned int bytes,
		    uint64_t val, uint64_t wmask)
{
	put_le_bytes(&pci->cfg[off], val, bytes);
	put_le_bytes(&pci->wmask[off], wmask, bytes);
}

static void init_header(struct emu_pci *pci)
{
	cfg_reg(pci, PCI_VENDOR_ID, 2, EMU_PCI_VENDOR_ID, 0);
	cfg_reg(pci, PCI_DEVICE_ID, 2, EMU_PCI_DEVICE_ID, 0);
	/* No I/O BARs, so the I/O space enable bit is hardwired to 0. */
	cfg_reg(pci, PCI_COMMAND, 2, 0,
		PCI_COMMAND_MEMORY | PCI_COMMAND_MASTER | PCI_COMMAND_PARITY |
		PCI_COMMAND_SERR | PCI_COMMAND_INTX_DISABLE);
	cfg_reg(pci, PCI_STATUS, 2, PCI_STATUS_CAP_LIST, 0);
	put_le_bytes(&pci->w1cmask[PCI_STATUS], PCI_STATUS_PARITY |
	       PCI_STATUS_SIG_TARGET_ABORT | PCI_STATUS_REC_TARGET_ABORT |
	       PCI_STATUS_REC_MASTER_ABORT | PCI_STATUS_SIG_SYSTEM_ERROR |
	       PCI_STATUS_DETECTED_PARITY, 2);
	cfg_reg(pci, PCI_REVISION_ID, 1, EMU_PCI_REVISION, 0);
	cfg_reg(pci, PCI_CLASS_PROG, 3, EMU_PCI_CLASS, 0);
	cfg_reg(pci, PCI_CACHE_LINE_SIZE, 1, 0, 0xff);
	cfg_reg(pci, PCI_HEADER_TYPE, 1, PCI_HEADER_TYPE_NORMAL, 0);
	cfg_reg(pci, PCI_SUBSYSTEM_VENDOR_ID, 2, EMU_PCI_VENDOR_ID, 0);
	cfg_reg(pci, PCI_SUBSYSTEM_ID, 2, EMU_PCI_SUBSYS_ID, 0);
	cfg_reg(pci, PCI_CAPABILITY_LIST, 1, EMU_CAP_MSI, 0);
	cfg_reg(pci, PCI_INTERRUPT_LINE, 1, 0, 0xff);
	/* INTx is not modelled: interrupt pin 0 says "no INTx". */
	cfg_reg(pci, PCI_INTERRUPT_PIN, 1, 0, 0);
}

/*
 * The card's BARs: a 64-bit BAR uses its own slot and the next one, a
 * 32-bit BAR its own. Slots of no BAR read 0 and take no writes.
 */
static void init_bars(struct emu_pci *pci)
{
	const struct emu_card *card = emu_card_of(pci);
	unsigned int bar;
	unsigned int off;

	for (bar = 0; bar < EMU_PCI_NUM_BARS; bar++)
		cfg_reg(pci, PCI_BASE_ADDRESS_0 + 4 * bar, 4, 0, 0);
	for (bar = 0; bar < EMU_PCI_NUM_BARS; bar++) {
		if (!card->bar_size[bar])
			continue;
		off = PCI_BASE_ADDRESS_0 + 4 * bar;
		cfg_reg(pci, off, 4, card->bar_32bit[bar] ? PCI_BASE_ADDRESS_MEM_TYPE_32 :
			PCI_BASE_ADDRESS_MEM_TYPE_64,
			(uint32_t)~(card->bar_size[bar] - 1) &
			PCI_BASE_ADDRESS_MEM_MASK);
		if (!card->bar_32bit[bar])
			cfg_reg(pci, off + 4, 4, 0, 0xffffffff);
	}
}

/* 64-bit MSI, 32 vectors, per-vector masking. */
static void init_msi_cap(struct emu_pci *pci, uint8_t next)
{
	unsigned int c = EMU_CAP_MSI;

	cfg_reg(pci, c + PCI_CAP_LIST_ID, 1, PCI_CAP_ID_MSI, 0);
	cfg_reg(pci, c + PCI_CAP_LIST_NEXT, 1, next, 0);
	cfg_reg(pci, c + PCI_MSI_FLAGS, 2,
		PCI_MSI_FLAGS_MASKBIT | PCI_MSI_FLAGS_64BIT |
		(5 << 1) /* Multiple Message Capable: 2^5 */,
		PCI_MSI_FLAGS_ENABLE | PCI_MSI_FLAGS_QSIZE);
	cfg_reg(pci, c + PCI_MSI_ADDRESS_LO, 4, 0, 0xfffffffc);
	cfg_reg(pci, c + PCI_MSI_ADDRESS_HI, 4, 0, 0xffffffff);
	cfg_reg(pci, c + PCI_MSI_DATA_64, 2, 0, 0xffff);
	cfg_reg(pci, c + PCI_MSI_MASK_64, 4, 0, 0xffffffff);
	/* Pending bits are the device's, read-only to the guest. */
	cfg_reg(pci, c + PCI_MSI_PENDING_64, 4, 0, 0);
}

/*
 * PCIe v2 endpoint capability: Gen4 x8 link, MPS up to 256 bytes, no FLR
 * (AIC100 does not implement FLR, see aic100.rst) unless emu_pci_set_flr().
 */
static void init_pcie_cap(struct emu_pci *pci, uint8_t next)
{
	unsigned int c = EMU_CAP_PCIE;

	cfg_reg(pci, c + PCI_CAP_LIST_ID, 1, PCI_CAP_ID_EXP, 0);
	cfg_reg(pci, c + PCI_CAP_LIST_NEXT, 1, next, 0);
	cfg_reg(pci, c + PCI_EXP_FLAGS, 2,
		2 | (PCI_EXP_TYPE_ENDPOINT << 4), 0);
	cfg_reg(pci, c + PCI_EXP_DEVCAP, 4,
		1 /* MPS 256 */ | PCI_EXP_DEVCAP_EXT_TAG | PCI_EXP_DEVCAP_RBER,
		0);
	cfg_reg(pci, c + PCI_EXP_DEVCTL, 2,
		PCI_EXP_DEVCTL_RELAX_EN | PCI_EXP_DEVCTL_NOSNOOP_EN |
		PCI_EXP_DEVCTL_READRQ_512B,
		PCI_EXP_DEVCTL_CERE | PCI_EXP_DEVCTL_NFERE |
		PCI_EXP_DEVCTL_FERE | PCI_EXP_DEVCTL_URRE |
		PCI_EXP_DEVCTL_RELAX_EN | PCI_EXP_DEVCTL_PAYLOAD |
		PCI_EXP_DEVCTL_EXT_TAG | PCI_EXP_DEVCTL_NOSNOOP_EN |
		PCI_EXP_DEVCTL_READRQ);
	cfg_reg(pci, c + PCI_EXP_DEVSTA, 2, 0, 0);
	put_le_bytes(&pci->w1cmask[c + PCI_EXP_DEVSTA], PCI_EXP_DEVSTA_CED |
	       PCI_EXP_DEVSTA_NFED | PCI_EXP_DEVSTA_FED | PCI_EXP_DEVSTA_URD, 2);
	cfg_reg(pci, c + PCI_EXP_LNKCAP, 4,
		PCI_EXP_LNKCAP_SLS_16_0GB | (8 << 4) /* x8 */, 0);
	cfg_reg(pci, c + PCI_EXP_LNKCTL, 2, 0,
		PCI_EXP_LNKCTL_ASPMC | PCI_EXP_LNKCTL_RCB |
		PCI_EXP_LNKCTL_CCC | PCI_EXP_LNKCTL_ES);
	cfg_reg(pci, c + PCI_EXP_LNKSTA, 2,
		PCI_EXP_LNKSTA_CLS_16_0GB | (8 << PCI_EXP_LNKSTA_NLW_SHIFT) |
		PCI_EXP_LNKSTA_SLC, 0);
	cfg_reg(pci, c + PCI_EXP_DEVCTL2, 2, 0, PCI_EXP_DEVCTL2_COMP_TIMEOUT |
		PCI_EXP_DEVCTL2_COMP_TMOUT_DIS);
	cfg_reg(pci, c + PCI_EXP_LNKCAP2, 4, PCI_EXP_LNKCAP2_SLS_2_5GB |
		PCI_EXP_LNKCAP2_SLS_5_0GB | PCI_EXP_LNKCAP2_SLS_8_0GB |
		PCI_EXP_LNKCAP2_SLS_16_0GB, 0);
	cfg_reg(pci, c + PCI_EXP_LNKCTL2, 2, PCI_EXP_LNKCTL2_TLS_16_0GT,
		PCI_EXP_LNKCTL2_TLS);
}

static void init_msix_cap(struct emu_pci *pci)
{
	unsigned int c = EMU_CAP_MSIX;
	unsigned int i;

	cfg_reg(pci, c + PCI_CAP_LIST_ID, 1, PCI_CAP_ID_MSIX, 0);
	cfg_reg(pci, c + PCI_CAP_LIST_NEXT, 1, 0, 0);
	cfg_reg(pci, c + PCI_MSIX_FLAGS, 2, EMU_NUM_VECTORS - 1,
		PCI_MSIX_FLAGS_ENABLE | PCI_MSIX_FLAGS_MASKALL);
	cfg_reg(pci, c + PCI_MSIX_TABLE, 4, EMU_MSIX_TABLE_OFF | EMU_MSIX_BAR, 0);
	cfg_reg(pci, c + PCI_MSIX_PBA, 4, EMU_MSIX_PBA_OFF | EMU_MSIX_BAR, 0);

	/* Every vector comes out of reset masked (PCIe base spec). */
	for (i = 0; i < EMU_NUM_VECTORS; i++) {
		uint8_t *e = &pci->msix_table[i * PCI_MSIX_ENTRY_SIZE];
		uint8_t *m = &pci->msix_table_wmask[i * PCI_MSIX_ENTRY_SIZE];

		put_le_bytes(e + PCI_MSIX_ENTRY_VECTOR_CTRL,
		       PCI_MSIX_ENTRY_CTRL_MASKBIT, 4);
		put_le_bytes(m + PCI_MSIX_ENTRY_LOWER_ADDR, 0xfffffffc, 4);
		put_le_bytes(m + PCI_MSIX_ENTRY_UPPER_ADDR, 0xffffffff, 4);
		put_le_bytes(m + PCI_MSIX_ENTRY_DATA, 0xffffffff, 4);
		put_le_bytes(m + PCI_MSIX_ENTRY_VECTOR_CTRL,
		       PCI_MSIX_ENTRY_CTRL_MASKBIT, 4);
	}
}

void emu_pci_init(struct emu_pci *pci, bool has_msix)
{
	memset(pci, 0, sizeof(*pci));
	pci->has_msix = has_msix;
	pci->card = &emu_card_aic100;
	init_header(pci);
	init_bars(pci);
	init_msi_cap(pci, EMU_CAP_PCIE);
	init_pcie_cap(pci, has_msix ? EMU_CAP_MSIX : 0);
	if (has_msix)
		init_msix_cap(pci);
}

static bool cfg_access_ok(uint64_t off, uint32_t size)
{
	if (size != 1 && size != 2 && size != 4 && size != 8)
		return false;
	return off < EMU_PCI_CFG_SIZE && size <= EMU_PCI_CFG_SIZE - off;
}

bool emu_pci_cfg_read(const struct emu_pci *pci, uint64_t off, uint32_t size,
		      uint64_t *val)
{
	if (!cfg_access_ok(off, size)) {
		*val = ~0ULL;
		return false;
	}
	*val = get_le_bytes(&pci->cfg[off], size);
	return true;
}

void emu_pci_set_device_id(struct emu_pci *pci, uint16_t id)
{
	cfg_reg(pci, PCI_DEVICE_ID, 2, id, 0);
	cfg_reg(pci, PCI_SUBSYSTEM_ID, 2, id, 0);
	if (pci->card != emu_card_by_id(id)) {
		pci->card = emu_card_by_id(id);
		init_bars(pci);
	}
}

uint16_t emu_pci_device_id(const struct emu_pci *pci)
{
	return (uint16_t)get_le_bytes(&pci->cfg[PCI_DEVICE_ID], 2);
}

void emu_pci_set_flr(struct emu_pci *pci, bool on)
{
	unsigned int off = EMU_CAP_PCIE + PCI_EXP_DEVCAP;
	uint32_t cap = (uint32_t)get_le_bytes(&pci->cfg[off], 4);

	pci->has_flr = on;
	cap = on ? cap | PCI_EXP_DEVCAP_FLR : cap & ~PCI_EXP_DEVCAP_FLR;
	put_le_bytes(&pci->cfg[off], cap, 4);
}

void emu_pci_set_irq_by_vector(struct emu_pci *pci, bool on)
{
	pci->irq_by_vector = on;
}

bool emu_pci_is_flr(const struct emu_pci *pci, uint64_t off, uint32_t size,
		    uint64_t val)
{
	/* Initiate FLR is bit 15 of Device Control: its second byte's top bit */
	uint64_t flr = EMU_CAP_PCIE + PCI_EXP_DEVCTL + 1;

	if (!pci->has_flr || !cfg_access_ok(off, size) || flr < off || flr >= off + size)
		return false;
	return (val >> (8 * (flr - off))) & (PCI_EXP_DEVCTL_BCR_FLR >> 8);
}

bool emu_pci_cfg_write(struct emu_pci *pci, uint64_t off, uint32_t size,
		       uint64_t val)
{
	unsigned int i;

	if (!cfg_access_ok(off, size))
		return false;

	for (i = 0; i < size; i++) {
		uint8_t byte = (uint8_t)(val >> (8 * i));
		uint8_t *reg = &pci->cfg[off + i];

		*reg = (*reg & ~pci->wmask[off + i]) | (byte & pci->wmask[off + i]);
		*reg &= ~(byte & pci->w1cmask[off + i]);
	}
	return true;
}

uint64_t emu_pci_bar_size(unsigned int bar)
{
	return bar < EMU_PCI_NUM_BARS ? bar_sizes[bar] : 0;
}

uint64_t emu_pci_card_bar_size(const struct emu_pci *pci, unsigned int bar)
{
	return bar < EMU_PCI_NUM_BARS ? emu_card_of(pci)->bar_size[bar] : 0;
}

static uint16_t cfg16(const struct emu_pci *pci, unsigned int off)
{
	return (uint16_t)get_le_bytes(&pci->cfg[off], 2);
}

static uint32_t cfg32(const struct emu_pci *pci, unsigned int off)
{
	return (uint32_t)get_le_bytes(&pci->cfg[off], 4);
}

uint16_t emu_pci_command(const struct emu_pci *pci)
{
	return cfg16(pci, PCI_COMMAND);
}

bool emu_pci_mem_enabled(const struct emu_pci *pci)
{
	return cfg16(pci, PCI_COMMAND) & PCI_COMMAND_MEMORY;
}

bool emu_pci_bus_master(const struct emu_pci *pci)
{
	return cfg16(pci, PCI_COMMAND) & PCI_COMMAND_MASTER;
}

/* Where [off, off + len) of @bar sits against [start, start + size). */
static int window_claim(uint64_t off, uint64_t len, uint64_t start,
			uint64_t size)
{
	uint64_t end = off + len;	/* callers bound off and len by the BAR */

	if (end <= start || off >= start + size)
		return 0;
	if (off >= start && end <= start + size)
		return 1;
	return -1;
}

int emu_pci_msix_claim(const struct emu_pci *pci, unsigned int bar,
		       uint64_t off, uint64_t len)
{
	int table, pba;

	if (!pci->has_msix || bar != EMU_MSIX_BAR)
		return 0;
	table = window_claim(off, len, EMU_MSIX_TABLE_OFF, EMU_MSIX_TABLE_SIZE);
	pba = window_claim(off, len, EMU_MSIX_PBA_OFF, EMU_MSIX_PBA_SIZE);
	if (table < 0 || pba < 0)
		return -1;
	return table || pba;
}

/* @off and @len must have been accepted by emu_pci_msix_claim(). */
void emu_pci_msix_read(const struct emu_pci *pci, uint64_t off, void *buf,
		       uint64_t len)
{
	if (off >= EMU_MSIX_PBA_OFF)
		memcpy(buf, &pci->msix_pba[off - EMU_MSIX_PBA_OFF], len);
	else
		memcpy(buf, &pci->msix_table[off - EMU_MSIX_TABLE_OFF], len);
}

/* The PBA is read-only; table writes go through the table's wmask. */
void emu_pci_msix_write(struct emu_pci *pci, uint64_t off, const void *buf,
			uint64_t len)
{
	const uint8_t *src = buf;
	uint64_t i, t;

	if (off >= EMU_MSIX_PBA_OFF)
		return;
	t = off - EMU_MSIX_TABLE_OFF;
	for (i = 0; i < len; i++) {
		uint8_t m = pci->msix_table_wmask[t + i];

		pci->msix_table[t + i] = (pci->msix_table[t + i] & ~m) |
					 (src[i] & m);
	}
}

static bool msix_enabled(const struct emu_pci *pci)
{
	return pci->has_msix &&
	       (cfg16(pci, EMU_CAP_MSIX + PCI_MSIX_FLAGS) & PCI_MSIX_FLAGS_ENABLE);
}

static bool msix_function_masked(const struct emu_pci *pci)
{
	return cfg16(pci, EMU_CAP_MSIX + PCI_MSIX_FLAGS) & PCI_MSIX_FLAGS_MASKALL;
}

static const uint8_t *msix_entry(const struct emu_pci *pci, unsigned int vec)
{
	return &pci->msix_table[vec * PCI_MSIX_ENTRY_SIZE];
}

static bool msix_vector_masked(const struct emu_pci *pci, unsigned int vec)
{
	return get_le_bytes(msix_entry(pci, vec) + PCI_MSIX_ENTRY_VECTOR_CTRL, 4) &
	       PCI_MSIX_ENTRY_CTRL_MASKBIT;
}

static void msix_compose(const struct emu_pci *pci, unsigned int vec,
			 struct emu_msi_msg *msg)
{
	const uint8_t *e = msix_entry(pci, vec);

	msg->addr = get_le_bytes(e + PCI_MSIX_ENTRY_LOWER_ADDR, 8);
	msg->data = (uint32_t)get_le_bytes(e + PCI_MSIX_ENTRY_DATA, 4);
	msg->msix = true;
	msg->vector = vec;
}

static bool msi_enabled(const struct emu_pci *pci)
{
	return cfg16(pci, EMU_CAP_MSI + PCI_MSI_FLAGS) & PCI_MSI_FLAGS_ENABLE;
}

/* Vectors granted by the guest: 2^min(Multiple Message Enable, Capable). */
static unsigned int msi_nr_vectors(const struct emu_pci *pci)
{
	uint16_t flags = cfg16(pci, EMU_CAP_MSI + PCI_MSI_FLAGS);
	unsigned int mme = (flags & PCI_MSI_FLAGS_QSIZE) >> 4;
	unsigned int mmc = (flags & PCI_MSI_FLAGS_QMASK) >> 1;

	return 1u << (mme < mmc ? mme : mmc);
}

/*
 * A device granted fewer vectors than it asked for folds the rest onto
 * vector 0: that is what AIC100 does in its single-MSI mode (the driver's
 * "all interrupts will be directed to MSI0").
 */
static unsigned int msi_fold_vector(const struct emu_pci *pci,
				    unsigned int vector)
{
	return vector < msi_nr_vectors(pci) ? vector : 0;
}

static void msi_compose(const struct emu_pci *pci, unsigned int v,
			struct emu_msi_msg *msg)
{
	unsigned int c = EMU_CAP_MSI;
	uint32_t data = cfg16(pci, c + PCI_MSI_DATA_64);

	msg->addr = get_le_bytes(&pci->cfg[c + PCI_MSI_ADDRESS_LO], 8);
	/* The function owns the low log2(nvec) bits of the data. */
	msg->data = (data & ~(msi_nr_vectors(pci) - 1)) | v;
	msg->msix = false;
	msg->vector = v;
}

static void set_bit32(uint8_t *reg, unsigned int bit, bool on)
{
	uint32_t val = (uint32_t)get_le_bytes(reg, 4);

	val = on ? val | (1u << bit) : val & ~(1u << bit);
	put_le_bytes(reg, val, 4);
}

static enum emu_irq_route msix_route(struct emu_pci *pci, unsigned int vector,
				     struct emu_msi_msg *msg)
{
	if (pci->irq_by_vector) {
		*msg = (struct emu_msi_msg){ .msix = true, .vector = vector };
		return EMU_IRQ_SEND;
	}
	if (msix_function_masked(pci) || msix_vector_masked(pci, vector)) {
		set_bit32(&pci->msix_pba[vector / 32 * 4], vector % 32, true);
		return EMU_IRQ_PENDING;
	}
	msix_compose(pci, vector, msg);
	return EMU_IRQ_SEND;
}

static enum emu_irq_route msi_route(struct emu_pci *pci, unsigned int vector,
				    struct emu_msi_msg *msg)
{
	unsigned int v = msi_fold_vector(pci, vector);
	unsigned int c = EMU_CAP_MSI;

	if (pci->irq_by_vector) {
		*msg = (struct emu_msi_msg){ .msix = false, .vector = v };
		return EMU_IRQ_SEND;
	}
	if (cfg32(pci, c + PCI_MSI_MASK_64) & (1u << v)) {
		set_bit32(&pci->cfg[c + PCI_MSI_PENDING_64], v, true);
		return EMU_IRQ_PENDING;
	}
	msi_compose(pci, v, msg);
	return EMU_IRQ_SEND;
}

enum emu_irq_route emu_pci_irq_route(struct emu_pci *pci, unsigned int vector,
				     struct emu_msi_msg *msg)
{
	/* An MSI is a memory write: no bus mastering, no interrupt. */
	if (vector >= EMU_NUM_VECTORS || !emu_pci_bus_master(pci))
		return EMU_IRQ_DROP;
	if (msix_enabled(pci))
		return msix_route(pci, vector, msg);
	if (msi_enabled(pci))
		return msi_route(pci, vector, msg);
	return EMU_IRQ_DROP;
}

static bool msix_take_unmasked(struct emu_pci *pci, struct emu_msi_msg *msg)
{
	uint32_t pba = (uint32_t)get_le_bytes(pci->msix_pba, 4);
	unsigned int vec;

	if (msix_function_masked(pci))
		return false;
	for (vec = 0; vec < EMU_NUM_VECTORS; vec++) {
		if (!(pba & (1u << vec)) || msix_vector_masked(pci, vec))
			continue;
		set_bit32(pci->msix_pba, vec, false);
		msix_compose(pci, vec, msg);
		return true;
	}
	return false;
}

static bool msi_take_unmasked(struct emu_pci *pci, struct emu_msi_msg *msg)
{
	unsigned int c = EMU_CAP_MSI;
	uint32_t ready = cfg32(pci, c + PCI_MSI_PENDING_64) &
			 ~cfg32(pci, c + PCI_MSI_MASK_64);
	unsigned int v;

	if (!ready)
		return false;
	v = (unsigned int)__builtin_ctz(ready);
	set_bit32(&pci->cfg[c + PCI_MSI_PENDING_64], v, false);
	msi_compose(pci, msi_fold_vector(pci, v), msg);
	return true;
}

bool emu_pci_irq_take_unmasked(struct emu_pci *pci, struct emu_msi_msg *msg)
{
	if (!emu_pci_bus_master(pci))
		return false;
	if (msix_enabled(pci))
		return msix_take_unmasked(pci, msg);
	if (msi_enabled(pci))
		return msi_take_unmasked(pci, msg);
	return false;
}
