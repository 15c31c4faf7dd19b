/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * PCI function of the emulated AIC100: configuration space (header, BARs,
 * capabilities) and the interrupt state the guest programs into it
 * (MSI capability, MSI-X table and pending bits).
 *
 * This file knows nothing about transports or register models; it only
 * answers "what does config space say" and "where does vector N go".
 */
#ifndef QAIC_EMU_PCI_H
#define QAIC_EMU_PCI_H

#include <stdbool.h>
#include <stdint.h>

#define EMU_PCI_VENDOR_ID	0x17cb	/* Qualcomm */
#define EMU_PCI_DEVICE_ID	0xa100	/* AIC100 */
#define EMU_PCI_DEVICE_ID_AIC080	0xa080	/* AIC080: the AIC100's layout */
#define EMU_PCI_DEVICE_ID_AIC200	0xa110	/* AIC200: card.h */
#define EMU_PCI_REVISION	0x00
#define EMU_PCI_CLASS		0x120000 /* processing accelerator */
#define EMU_PCI_SUBSYS_ID	0xa100

#define EMU_PCI_CFG_SIZE	4096	/* PCIe: extended config space */
#define EMU_PCI_NUM_BARS	6

/*
 * BAR sizes of the real card (Documentation/accel/qaic/aic100.rst):
 * BAR0 4K MHI, BAR2 2M DMA Bridge, BAR4 64K (no purpose on the card).
 * All three are 64-bit, non-prefetchable (they hold registers).
 */
#define EMU_BAR0_SIZE		0x1000
#define EMU_BAR2_SIZE		0x200000
#define EMU_BAR4_SIZE		0x10000

/* Vectors: AIC100 wants 1 (MHI) + 16 (DBC); MSI allows 32. */
#define EMU_NUM_VECTORS		32

/* The optional MSI-X table and PBA live in the upper half of BAR4. */
#define EMU_MSIX_BAR		4
#define EMU_MSIX_TABLE_OFF	0x8000
#define EMU_MSIX_TABLE_SIZE	(EMU_NUM_VECTORS * 16)
#define EMU_MSIX_PBA_OFF	0x9000
#define EMU_MSIX_PBA_SIZE	8

/* Capability offsets in config space. */
#define EMU_CAP_MSI		0x40
#define EMU_CAP_PCIE		0x60
#define EMU_CAP_MSIX		0xb0

struct emu_card;

struct emu_pci {
	const struct emu_card *card;	/* the card of the device id (card.h) */
	uint8_t cfg[EMU_PCI_CFG_SIZE];
	uint8_t wmask[EMU_PCI_CFG_SIZE];	/* bits the guest may write */
	uint8_t w1cmask[EMU_PCI_CFG_SIZE];	/* bits cleared by writing 1 */
	bool has_msix;
	bool has_flr;		/* function-level reset offered (not AIC100's) */
	/*
	 * The transport's client owns the MSI-X table, MSI masking and the
	 * message address/data (vfio-user: QEMU emulates them and is only
	 * told vector numbers); see emu_pci_set_irq_by_vector().
	 */
	bool irq_by_vector;

	uint8_t msix_table[EMU_MSIX_TABLE_SIZE];
	uint8_t msix_table_wmask[EMU_MSIX_TABLE_SIZE];
	uint8_t msix_pba[EMU_MSIX_PBA_SIZE];
};

/* The memory write an MSI or MSI-X vector turns into. */
struct emu_msi_msg {
	uint64_t addr;
	uint32_t data;
	bool msix;	/* MSI-X carries 32 data bits, MSI 16 */
	unsigned int vector;	/* MSI-X entry, or MSI vector after folding */
};

enum emu_irq_route {
	EMU_IRQ_SEND,	/* deliver the message now */
	EMU_IRQ_PENDING,/* masked: pending bit set, sent on unmask */
	EMU_IRQ_DROP,	/* interrupts off, or no bus mastering */
};

void emu_pci_init(struct emu_pci *pci, bool has_msix);

/*
 * The card the function says it is: its device and subsystem ids, read
 * only, and the card's BARs (card.h: emu_card_by_id(); an AIC080 has the
 * AIC100's BARs, MHI and DBCs, an AIC200 its own BARs).
 */
void emu_pci_set_device_id(struct emu_pci *pci, uint16_t id);
uint16_t emu_pci_device_id(const struct emu_pci *pci);

/*
 * Offer a function-level reset (DEVCAP FLR). The real AIC100 has none;
 * the bench offers one to test the host's reset_prepare/reset_done.
 */
void emu_pci_set_flr(struct emu_pci *pci, bool on);

/*
 * Interrupts leave by vector number: with MSI-X enabled every vector is
 * sent as is (the client masks and composes the message from its own
 * table), with MSI enabled vectors are folded as usual but not masked
 * here. The enable bits and bus mastering still decide, from the config
 * writes the client forwards. Survives emu_pci_init() only through the
 * caller (see device.c's FLR).
 */
void emu_pci_set_irq_by_vector(struct emu_pci *pci, bool on);

/*
 * Whether the config write of @size bytes of @val at @off initiates a
 * function-level reset (Initiate FLR in Device Control, FLR offered).
 */
bool emu_pci_is_flr(const struct emu_pci *pci, uint64_t off, uint32_t size,
		    uint64_t val);

/*
 * Config space accessors. Accesses that do not fit in config space return
 * false (reads then yield all-ones, writes are ignored).
 */
bool emu_pci_cfg_read(const struct emu_pci *pci, uint64_t off, uint32_t size,
		      uint64_t *val);
bool emu_pci_cfg_write(struct emu_pci *pci, uint64_t off, uint32_t size,
		       uint64_t val);

/* Size of BAR @bar of any card (the device keeps registers for each). */
uint64_t emu_pci_bar_size(unsigned int bar);
/* Size of BAR @bar of this function's card; 0 for a BAR it does not have. */
uint64_t emu_pci_card_bar_size(const struct emu_pci *pci, unsigned int bar);
/* The command register, as the host last wrote it. */
uint16_t emu_pci_command(const struct emu_pci *pci);
bool emu_pci_mem_enabled(const struct emu_pci *pci);
bool emu_pci_bus_master(const struct emu_pci *pci);

/*
 * MSI-X table/PBA access through BAR4. emu_pci_msix_claim() tells whether
 * [off, off + len) of @bar is entirely inside the table or PBA (1), not in
 * them at all (0) or straddles an edge (-1, a guest error).
 */
int emu_pci_msix_claim(const struct emu_pci *pci, unsigned int bar,
		       uint64_t off, uint64_t len);
void emu_pci_msix_read(const struct emu_pci *pci, uint64_t off, void *buf,
		       uint64_t len);
void emu_pci_msix_write(struct emu_pci *pci, uint64_t off, const void *buf,
			uint64_t len);

/* Decide where @vector goes; fills @msg for EMU_IRQ_SEND. */
enum emu_irq_route emu_pci_irq_route(struct emu_pci *pci, unsigned int vector,
				     struct emu_msi_msg *msg);

/*
 * Take one pending vector that is no longer masked (clearing its pending
 * bit) and fill @msg. Returns false when there is none.
 */
bool emu_pci_irq_take_unmasked(struct emu_pci *pci, struct emu_msi_msg *msg);

#endif /* QAIC_EMU_PCI_H */
