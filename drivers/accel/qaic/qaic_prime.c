// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The qaic authors.
 */

/**
 * DOC: qaic dma-bufs
 *
 * Objects are shared as dma-bufs whose pages the exporting card pins for
 * as long as anyone is attached. Each importer gets a scatter table cut to
 * the longest segment its own device can take: the shmem helpers cut one
 * table to the exporter's limits, and this card takes segments of any
 * length, which most devices do not.
 *
 * Like qaic_bo_map(), the importers' mappings leave the CPU cache
 * maintenance to dma_buf_begin_cpu_access() and the importer, so that the
 * same pages may be mapped for several devices at once.
 *
 * A dma-buf of one of this card's own objects imports as the object itself.
 */

#include <linux/dma-buf.h>
#include <linux/dma-mapping.h>
#include <linux/dma-resv.h>
#include <linux/minmax.h>
#include <linux/module.h>
#include <linux/scatterlist.h>
#include <linux/slab.h>

#include <drm/drm_gem_shmem_helper.h>
#include <drm/drm_prime.h>

#include "qaic_compat.h"
#include "qaic_gem.h"
#include "qaic_prime.h"

static struct sg_table *qaic_prime_map(struct dma_buf_attachment *attach,
				       enum dma_data_direction dir)
{
	struct drm_gem_object *obj = attach->dmabuf->priv;
	struct drm_gem_shmem_object *shmem = to_drm_gem_shmem_obj(obj);
	unsigned int max_seg = dma_get_max_seg_size(attach->dev);
	struct sg_table *sgt;
	int ret;

	if (dir == DMA_NONE)
		return ERR_PTR(-EINVAL);

	sgt = kzalloc_obj(*sgt, GFP_KERNEL_ACCOUNT);
	if (!sgt)
		return ERR_PTR(-ENOMEM);
	/* drm_gem_map_attach() pinned the pages until the detach. */
	max_seg = max_t(unsigned int, round_down(max_seg, PAGE_SIZE), PAGE_SIZE);
	ret = sg_alloc_table_from_pages_segment(sgt, shmem->pages, obj->size >> PAGE_SHIFT,
						0, obj->size, max_seg, GFP_KERNEL_ACCOUNT);
	if (ret)
		goto free;
	ret = dma_map_sgtable(attach->dev, sgt, dir, DMA_ATTR_SKIP_CPU_SYNC);
	if (ret)
		goto free_table;
	return sgt;

free_table:
	sg_free_table(sgt);
free:
	kfree(sgt);
	return ERR_PTR(ret);
}

/* drm_gem_unmap_dma_buf() undoes qaic_prime_map() as it is. */
static const struct dma_buf_ops qaic_dmabuf_ops = {
	.attach = drm_gem_map_attach,
	.detach = drm_gem_map_detach,
	.map_dma_buf = qaic_prime_map,
	.unmap_dma_buf = drm_gem_unmap_dma_buf,
	.release = drm_gem_dmabuf_release,
	.mmap = drm_gem_dmabuf_mmap,
	.vmap = drm_gem_dmabuf_vmap,
	.vunmap = drm_gem_dmabuf_vunmap,
};

/**
 * qaic_gem_prime_export() - Make a dma-buf of an object.
 * @obj: The object; the dma-buf holds a reference to it until released.
 * @flags: Flags of the file to create.
 *
 * Return: The dma-buf, or an ERR_PTR().
 */
struct dma_buf *qaic_gem_prime_export(struct drm_gem_object *obj, int flags)
{
	struct dma_buf_export_info info = {
		.exp_name = KBUILD_MODNAME,
		/* The ops live in this module: the dma-buf holds it. */
		.owner = THIS_MODULE,
		.ops = &qaic_dmabuf_ops,
		.size = obj->size,
		.flags = flags,
		.priv = obj,
		.resv = obj->resv,
	};

	return drm_gem_dmabuf_export(obj->dev, &info);
}

/**
 * qaic_gem_prime_import() - Make an object of a dma-buf.
 * @drm: The importing card.
 * @dmabuf: The dma-buf.
 *
 * Return: A new reference to the object: the card's own object for a
 * dma-buf it exported, else a new object attached to the dma-buf and
 * mapped for the card until it is freed or the card unplugged; or an
 * ERR_PTR().
 */
struct drm_gem_object *qaic_gem_prime_import(struct drm_device *drm, struct dma_buf *dmabuf)
{
	struct drm_gem_object *obj = dmabuf->priv;
	struct sg_table *sgt;

	if (dmabuf->ops == &qaic_dmabuf_ops && obj->dev == drm) {
		drm_gem_object_get(obj);
		return obj;
	}
	obj = drm_gem_prime_import(drm, dmabuf);
	if (IS_ERR(obj))
		return obj;
	/*
	 * The import mapped the attachment for the card already: record it
	 * now, not at the first attach, so that an unplug unmaps it too
	 * (qaic_gem_unmap_all()) and no mapping outlives the device.
	 */
	dma_resv_lock(obj->resv, NULL);
	sgt = qaic_bo_map(to_qaic_bo(obj));
	dma_resv_unlock(obj->resv);
	if (IS_ERR(sgt)) {
		drm_gem_object_put(obj);
		return ERR_CAST(sgt);
	}
	return obj;
}
