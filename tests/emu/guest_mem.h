/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Guest memory as the emulated device sees it: the regions the frontend
 * shared with us (vhost-user: SET_MEM_TABLE; vfio-user: one DMA_MAP per
 * region, keyed by IOVA), mapped into this process or, for regions the
 * frontend sent no fd for, reached through the transport (struct
 * guest_mem_io).
 *
 * Every address handed to us by the guest is untrusted. The only ways to
 * reach guest memory are guest_mem_find()/guest_mem_gpa()/guest_mem_uva(),
 * which refuse ranges that are not entirely inside one region, including
 * ranges whose end wraps around 2^64.
 *
 * Regions are kept sorted by guest address and never overlap, so that a
 * vfio-user client with an IOMMU in the guest (one DMA_MAP per guest DMA
 * mapping, thousands of them) is looked up in O(log n).
 */
#ifndef QAIC_EMU_GUEST_MEM_H
#define QAIC_EMU_GUEST_MEM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* vhost-user spec: VHOST_MEMORY_BASELINE_NREGIONS; guest_mem_init()'s limit */
#define GUEST_MEM_MAX_REGIONS 8

struct guest_mem_region {
	uint64_t gpa;		/* guest physical address (or IOVA) */
	uint64_t uva;		/* frontend's "user address" of the region */
	uint64_t size;
	uint8_t *host;		/* where it is mapped here; NULL: guest_mem_io */
	void *map_base;		/* mmap() result, for munmap() */
	size_t map_len;
	bool read_only;		/* the device may not write it */
};

/* How the transport reaches a region it has no mapping of. 0 or -errno. */
struct guest_mem_io {
	int (*read)(void *ctx, uint64_t gpa, void *buf, uint64_t len);
	int (*write)(void *ctx, uint64_t gpa, const void *buf, uint64_t len);
	void *ctx;
};

struct guest_mem {
	unsigned int nr_regions;
	unsigned int max_regions;	/* refuse more than this */
	unsigned int cap;		/* allocated entries of @regions */
	struct guest_mem_region *regions;	/* sorted by gpa, disjoint */
	struct guest_mem_io io;
};

/* An empty table holding at most GUEST_MEM_MAX_REGIONS regions. */
void guest_mem_init(struct guest_mem *mem);
/* Raise (or lower) the number of regions the table accepts. */
void guest_mem_set_max_regions(struct guest_mem *mem, unsigned int max);

/*
 * Map @size bytes of @fd starting at file offset @fd_offset as a region at
 * guest physical @gpa / frontend address @uva. Does not take @fd over.
 * Returns 0 or a negative errno (-EEXIST: overlaps a region).
 */
int guest_mem_add_fd(struct guest_mem *mem, int fd, uint64_t fd_offset,
		     uint64_t gpa, uint64_t uva, uint64_t size, bool read_only);

/*
 * Add a region that is already mapped in this process (unit tests), or
 * with @host NULL one that only mem->io reaches. The caller keeps
 * ownership of @host.
 */
int guest_mem_add_host(struct guest_mem *mem, void *host, uint64_t gpa,
		       uint64_t uva, uint64_t size, bool read_only);

/*
 * Forget every region wholly inside [gpa, gpa + size), unmapping what
 * guest_mem_add_fd() mapped. -EINVAL (nothing removed) if a region
 * straddles an edge of the range or the range wraps. Returns the number
 * of regions removed otherwise.
 */
int guest_mem_remove(struct guest_mem *mem, uint64_t gpa, uint64_t size);

/* Unmap every region mapped by guest_mem_add_fd(), forget them all. */
void guest_mem_reset(struct guest_mem *mem);

/* The region holding all of [gpa, gpa + len), or NULL. */
const struct guest_mem_region *guest_mem_find(const struct guest_mem *mem,
					      uint64_t gpa, uint64_t len);

/*
 * Pointer to [gpa, gpa + len) or NULL if it is not all in one region
 * mapped here.
 */
void *guest_mem_gpa(const struct guest_mem *mem, uint64_t gpa, uint64_t len);

/* Same, for an address in the frontend's address space (vring addresses). */
void *guest_mem_uva(const struct guest_mem *mem, uint64_t uva, uint64_t len);

#endif /* QAIC_EMU_GUEST_MEM_H */
