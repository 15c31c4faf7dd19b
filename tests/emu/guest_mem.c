// SPDX-License-Identifier: GPL-2.0-only
/*
 * Guest memory regions and bounds-checked address translation.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "guest_mem.h"

void guest_mem_init(struct guest_mem *mem)
{
	memset(mem, 0, sizeof(*mem));
	mem->max_regions = GUEST_MEM_MAX_REGIONS;
}

void guest_mem_set_max_regions(struct guest_mem *mem, unsigned int max)
{
	mem->max_regions = max;
}

/* Index of the first region whose start is above @gpa. */
static unsigned int upper_bound(const struct guest_mem *mem, uint64_t gpa)
{
	unsigned int lo = 0, hi = mem->nr_regions;

	while (lo < hi) {
		unsigned int mid = lo + (hi - lo) / 2;

		if (mem->regions[mid].gpa <= gpa)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/*
 * Where a new region [gpa, gpa + size) goes in the sorted table, or a
 * negative errno: table full, empty or wrapping region, overlap.
 */
static int slot_for_new(struct guest_mem *mem, uint64_t gpa, uint64_t uva,
			uint64_t size)
{
	uint64_t last = gpa + size - 1;
	unsigned int i;

	if (mem->nr_regions >= mem->max_regions)
		return -ENOSPC;
	/* A region must not wrap: its last byte must be addressable. */
	if (!size || last < gpa || uva + size - 1 < uva)
		return -EINVAL;
	i = upper_bound(mem, gpa);
	if (i > 0) {
		const struct guest_mem_region *prev = &mem->regions[i - 1];

		if (prev->gpa + (prev->size - 1) >= gpa)
			return -EEXIST;
	}
	if (i < mem->nr_regions && mem->regions[i].gpa <= last)
		return -EEXIST;
	if (mem->nr_regions == mem->cap) {
		unsigned int cap = mem->cap ? 2 * mem->cap : 8;
		struct guest_mem_region *r;

		r = realloc(mem->regions, cap * sizeof(*r));
		if (!r)
			return -ENOMEM;
		mem->regions = r;
		mem->cap = cap;
	}
	return (int)i;
}

static void insert_at(struct guest_mem *mem, unsigned int i,
		      const struct guest_mem_region *r)
{
	memmove(&mem->regions[i + 1], &mem->regions[i],
		(mem->nr_regions - i) * sizeof(*r));
	mem->regions[i] = *r;
	mem->nr_regions++;
}

int guest_mem_add_fd(struct guest_mem *mem, int fd, uint64_t fd_offset,
		     uint64_t gpa, uint64_t uva, uint64_t size, bool read_only)
{
	uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE);
	uint64_t map_off = fd_offset & ~(page - 1);
	uint64_t delta = fd_offset - map_off;
	struct guest_mem_region r = { 0 };
	void *base;
	int slot;

	slot = slot_for_new(mem, gpa, uva, size);
	if (slot < 0)
		return slot;
	/* mmap() takes a page-aligned offset; map from the page below. */
	if (size > SIZE_MAX - delta || (off_t)map_off < 0)
		return -EINVAL;

	base = mmap(NULL, size + delta,
		    read_only ? PROT_READ : PROT_READ | PROT_WRITE, MAP_SHARED,
		    fd, (off_t)map_off);
	if (base == MAP_FAILED)
		return -errno;

	r.gpa = gpa;
	r.uva = uva;
	r.size = size;
	r.host = (uint8_t *)base + delta;
	r.map_base = base;
	r.map_len = size + delta;
	r.read_only = read_only;
	insert_at(mem, (unsigned int)slot, &r);
	return 0;
}

int guest_mem_add_host(struct guest_mem *mem, void *host, uint64_t gpa,
		       uint64_t uva, uint64_t size, bool read_only)
{
	struct guest_mem_region r = { 0 };
	int slot;

	slot = slot_for_new(mem, gpa, uva, size);
	if (slot < 0)
		return slot;

	r.gpa = gpa;
	r.uva = uva;
	r.size = size;
	r.host = host;
	r.read_only = read_only;
	insert_at(mem, (unsigned int)slot, &r);
	return 0;
}

static void region_unmap(struct guest_mem_region *r)
{
	if (r->map_base)
		munmap(r->map_base, r->map_len);
}

int guest_mem_remove(struct guest_mem *mem, uint64_t gpa, uint64_t size)
{
	uint64_t last = gpa + size - 1;
	unsigned int first, end, i;

	if (!size || last < gpa)
		return -EINVAL;
	/* A region starting below @gpa must end below it too. */
	first = upper_bound(mem, gpa);
	if (first > 0) {
		const struct guest_mem_region *prev = &mem->regions[first - 1];

		if (prev->gpa == gpa)
			first--;
		else if (prev->gpa + (prev->size - 1) >= gpa)
			return -EINVAL;
	}
	end = upper_bound(mem, last);
	if (end > first) {
		const struct guest_mem_region *r = &mem->regions[end - 1];

		if (r->gpa + (r->size - 1) > last)
			return -EINVAL;
	}
	if (end <= first)
		return 0;
	for (i = first; i < end; i++)
		region_unmap(&mem->regions[i]);
	memmove(&mem->regions[first], &mem->regions[end],
		(mem->nr_regions - end) * sizeof(mem->regions[0]));
	mem->nr_regions -= end - first;
	return (int)(end - first);
}

/* Keeps the limit and the io callbacks: they belong to the transport. */
void guest_mem_reset(struct guest_mem *mem)
{
	unsigned int i;

	for (i = 0; i < mem->nr_regions; i++)
		region_unmap(&mem->regions[i]);
	free(mem->regions);
	mem->regions = NULL;
	mem->nr_regions = 0;
	mem->cap = 0;
	if (!mem->max_regions)		/* a zeroed struct, never initialised */
		mem->max_regions = GUEST_MEM_MAX_REGIONS;
}

/*
 * Written as "offset < size && len <= size - offset" so that no sum of
 * guest-controlled values can overflow.
 */
static bool region_holds(const struct guest_mem_region *r, uint64_t start,
			 uint64_t addr, uint64_t len)
{
	uint64_t off;

	if (addr < start)
		return false;
	off = addr - start;
	return off < r->size && len <= r->size - off;
}

const struct guest_mem_region *guest_mem_find(const struct guest_mem *mem,
					      uint64_t gpa, uint64_t len)
{
	unsigned int i = upper_bound(mem, gpa);
	const struct guest_mem_region *r;

	/* Only the last region starting at or below @gpa can hold it. */
	if (!i)
		return NULL;
	r = &mem->regions[i - 1];
	return region_holds(r, r->gpa, gpa, len) ? r : NULL;
}

void *guest_mem_gpa(const struct guest_mem *mem, uint64_t gpa, uint64_t len)
{
	const struct guest_mem_region *r = guest_mem_find(mem, gpa, len);

	return r && r->host ? r->host + (gpa - r->gpa) : NULL;
}

/* Few regions (vhost-user's at most 8), not sorted by uva: a plain scan. */
void *guest_mem_uva(const struct guest_mem *mem, uint64_t uva, uint64_t len)
{
	unsigned int i;

	for (i = 0; i < mem->nr_regions; i++) {
		const struct guest_mem_region *r = &mem->regions[i];

		if (r->host && region_holds(r, r->uva, uva, len))
			return r->host + (uva - r->uva);
	}
	return NULL;
}
