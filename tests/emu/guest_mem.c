// SPDX-License-Identifier: GPL-2.0-only
/*
 * Guest memory regions and bounds-checked address translation.
 */
#include <errno.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "guest_mem.h"

void guest_mem_init(struct guest_mem *mem)
{
	memset(mem, 0, sizeof(*mem));
}

static int guest_mem_check_new(const struct guest_mem *mem, uint64_t gpa,
			       uint64_t uva, uint64_t size)
{
	if (mem->nr_regions >= GUEST_MEM_MAX_REGIONS)
		return -ENOSPC;
	/* A region must not wrap: its last byte must be addressable. */
	if (!size || gpa + size - 1 < gpa || uva + size - 1 < uva)
		return -EINVAL;
	return 0;
}

int guest_mem_add_fd(struct guest_mem *mem, int fd, uint64_t fd_offset,
		     uint64_t gpa, uint64_t uva, uint64_t size)
{
	uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE);
	uint64_t map_off = fd_offset & ~(page - 1);
	uint64_t delta = fd_offset - map_off;
	struct guest_mem_region *r;
	void *base;
	int ret;

	ret = guest_mem_check_new(mem, gpa, uva, size);
	if (ret)
		return ret;
	/* mmap() takes a page-aligned offset; map from the page below. */
	if (size > SIZE_MAX - delta || (off_t)map_off < 0)
		return -EINVAL;

	base = mmap(NULL, size + delta, PROT_READ | PROT_WRITE, MAP_SHARED,
		    fd, (off_t)map_off);
	if (base == MAP_FAILED)
		return -errno;

	r = &mem->regions[mem->nr_regions++];
	r->gpa = gpa;
	r->uva = uva;
	r->size = size;
	r->host = (uint8_t *)base + delta;
	r->map_base = base;
	r->map_len = size + delta;
	return 0;
}

int guest_mem_add_host(struct guest_mem *mem, void *host, uint64_t gpa,
		       uint64_t uva, uint64_t size)
{
	struct guest_mem_region *r;
	int ret;

	ret = guest_mem_check_new(mem, gpa, uva, size);
	if (ret)
		return ret;

	r = &mem->regions[mem->nr_regions++];
	memset(r, 0, sizeof(*r));
	r->gpa = gpa;
	r->uva = uva;
	r->size = size;
	r->host = host;
	return 0;
}

void guest_mem_reset(struct guest_mem *mem)
{
	unsigned int i;

	for (i = 0; i < mem->nr_regions; i++) {
		if (mem->regions[i].map_base)
			munmap(mem->regions[i].map_base, mem->regions[i].map_len);
	}
	guest_mem_init(mem);
}

/*
 * Written as "offset < size && len <= size - offset" so that no sum of
 * guest-controlled values can overflow.
 */
static void *region_lookup(const struct guest_mem_region *r, uint64_t start,
			   uint64_t addr, uint64_t len)
{
	uint64_t off;

	if (addr < start)
		return NULL;
	off = addr - start;
	if (off >= r->size || len > r->size - off)
		return NULL;
	return r->host + off;
}

void *guest_mem_gpa(const struct guest_mem *mem, uint64_t gpa, uint64_t len)
{
	unsigned int i;
	void *p;

	for (i = 0; i < mem->nr_regions; i++) {
		p = region_lookup(&mem->regions[i], mem->regions[i].gpa, gpa, len);
		if (p)
			return p;
	}
	return NULL;
}

void *guest_mem_uva(const struct guest_mem *mem, uint64_t uva, uint64_t len)
{
	unsigned int i;
	void *p;

	for (i = 0; i < mem->nr_regions; i++) {
		p = region_lookup(&mem->regions[i], mem->regions[i].uva, uva, len);
		if (p)
			return p;
	}
	return NULL;
}
