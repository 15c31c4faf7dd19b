/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Guest memory as the emulated device sees it: the regions the frontend
 * shared with us (for vhost-user: SET_MEM_TABLE), mapped into this process.
 *
 * Every address handed to us by the guest is untrusted. The only way to
 * turn one into a pointer is guest_mem_gpa()/guest_mem_uva(), which refuse
 * ranges that are not entirely inside one region, including ranges whose
 * end wraps around 2^64.
 */
#ifndef QAIC_EMU_GUEST_MEM_H
#define QAIC_EMU_GUEST_MEM_H

#include <stddef.h>
#include <stdint.h>

/* vhost-user spec: VHOST_MEMORY_BASELINE_NREGIONS */
#define GUEST_MEM_MAX_REGIONS 8

struct guest_mem_region {
	uint64_t gpa;		/* guest physical address of the region */
	uint64_t uva;		/* frontend's "user address" of the region */
	uint64_t size;
	uint8_t *host;		/* where the region is mapped here */
	void *map_base;		/* mmap() result, for munmap() */
	size_t map_len;
};

struct guest_mem {
	unsigned int nr_regions;
	struct guest_mem_region regions[GUEST_MEM_MAX_REGIONS];
};

void guest_mem_init(struct guest_mem *mem);

/*
 * Map @size bytes of @fd starting at file offset @fd_offset as a region at
 * guest physical @gpa / frontend address @uva. Does not take @fd over.
 * Returns 0 or a negative errno.
 */
int guest_mem_add_fd(struct guest_mem *mem, int fd, uint64_t fd_offset,
		     uint64_t gpa, uint64_t uva, uint64_t size);

/*
 * Add a region that is already mapped in this process (unit tests).
 * The caller keeps ownership of @host.
 */
int guest_mem_add_host(struct guest_mem *mem, void *host, uint64_t gpa,
		       uint64_t uva, uint64_t size);

/* Unmap every region mapped by guest_mem_add_fd() and forget them all. */
void guest_mem_reset(struct guest_mem *mem);

/* Pointer to [gpa, gpa + len) or NULL if it is not all in one region. */
void *guest_mem_gpa(const struct guest_mem *mem, uint64_t gpa, uint64_t len);

/* Same, for an address in the frontend's address space (vring addresses). */
void *guest_mem_uva(const struct guest_mem *mem, uint64_t uva, uint64_t len);

#endif /* QAIC_EMU_GUEST_MEM_H */
