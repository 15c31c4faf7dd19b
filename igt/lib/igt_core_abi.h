/* SPDX-License-Identifier: MIT */
/*
 * Copyright (c) 2026 The qaic authors.
 */

/*
 * The part of the IGT core ABI that the qaic tests use, declared for
 * building against a libigt.so.0 that comes without its headers (Debian 12
 * ships intel-gpu-tools 1.27.1 that way). The macros and prototypes match
 * lib/igt_core.h, lib/drmtest.h and lib/ioctl_wrappers.h of IGT 1.27.1.
 *
 * This header is only used when no real IGT headers are found: meson then
 * defines QAIC_IGT_CORE_ABI and igt_qaic.h includes this file instead of
 * "igt.h". Tests never include it directly, so they build unchanged inside
 * igt-gpu-tools. Add a declaration here only when a test needs it, and copy
 * its shape from IGT 1.27.1 exactly: a wrong prototype still links.
 */

#ifndef IGT_CORE_ABI_H
#define IGT_CORE_ABI_H

#include <errno.h>
#include <setjmp.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <xf86drm.h>

#ifndef IGT_LOG_DOMAIN
#define IGT_LOG_DOMAIN (NULL)
#endif

#define __noreturn __attribute__((noreturn))

#define IGT_EXIT_SUCCESS	0
#define IGT_EXIT_SKIP		77
#define IGT_EXIT_INVALID	79
#define IGT_EXIT_FAILURE	98

#define __igt_tokencat2(x, y) x ## y
#define igt_tokencat(x, y) __igt_tokencat2(x, y)
#define igt_unique(prefix) \
	igt_tokencat(igt_tokencat(__igt_unique__, prefix), __LINE__)

/* lib/igt_core.h: test structure */

extern const char *__igt_test_description __attribute__((weak));
#define IGT_TEST_DESCRIPTION(str) const char *__igt_test_description = str

extern jmp_buf igt_subtest_jmpbuf;

struct option;
typedef int (*igt_opt_handler_t)(int opt, int opt_index, void *data);
int igt_subtest_init_parse_opts(int *argc, char **argv,
				const char *extra_short_opts,
				const struct option *extra_long_opts,
				const char *help_str,
				igt_opt_handler_t extra_opt_handler,
				void *handler_data);

bool __igt_fixture(void);
void __igt_fixture_complete(void);
bool __igt_run_subtest(const char *subtest_name, const char *file,
		       const int line);

__attribute__((format(printf, 1, 2)))
void igt_describe_f(const char *fmt, ...);
#define igt_describe(dsc) igt_describe_f("%s", dsc)

/* Called at exit and on fatal signals (0 at a normal exit). */
typedef void (*igt_exit_handler_t)(int sig);
void igt_install_exit_handler(igt_exit_handler_t fn);

void igt_success(void);
__noreturn void igt_exit(void);
__noreturn __attribute__((format(printf, 1, 2)))
void igt_skip(const char *f, ...);
__noreturn __attribute__((format(printf, 5, 6)))
void __igt_skip_check(const char *file, const int line,
		      const char *func, const char *check,
		      const char *format, ...);
__noreturn __attribute__((format(printf, 6, 7)))
void __igt_fail_assert(const char *domain, const char *file,
		       const int line, const char *func,
		       const char *assertion, const char *format, ...);

#define igt_main \
	static void igt_unique(__real_main)(void); \
	int main(int argc, char **argv) \
	{ \
		igt_subtest_init_parse_opts(&argc, argv, NULL, NULL, NULL, \
					    NULL, NULL); \
		igt_unique(__real_main)(); \
		igt_exit(); \
	} \
	static void igt_unique(__real_main)(void)

#define igt_fixture \
	for (volatile int igt_unique(__tmpint) = 0; \
	     igt_unique(__tmpint) < 1 && \
	     (__igt_fixture() && (sigsetjmp(igt_subtest_jmpbuf, 1) == 0)); \
	     igt_unique(__tmpint)++, __igt_fixture_complete())

#define igt_subtest(name) \
	for (; __igt_run_subtest((name), __FILE__, __LINE__) && \
	       (sigsetjmp(igt_subtest_jmpbuf, 1) == 0); \
	       igt_success())

#define __igt_subtest_f(tmp, format...) \
	for (char tmp[256]; \
	     snprintf(tmp, sizeof(tmp), format), \
	     __igt_run_subtest(tmp, __FILE__, __LINE__) && \
	     (sigsetjmp(igt_subtest_jmpbuf, 1) == 0); \
	     igt_success())
#define igt_subtest_f(f...) __igt_subtest_f(igt_unique(__tmpchar), f)

/* lib/igt_core.h: logging */

enum igt_log_level {
	IGT_LOG_DEBUG,
	IGT_LOG_INFO,
	IGT_LOG_WARN,
	IGT_LOG_CRITICAL,
	IGT_LOG_NONE,
};

__attribute__((format(printf, 3, 4)))
void igt_log(const char *domain, enum igt_log_level level,
	     const char *format, ...);
#define igt_debug(f...) igt_log(IGT_LOG_DOMAIN, IGT_LOG_DEBUG, f)
#define igt_info(f...) igt_log(IGT_LOG_DOMAIN, IGT_LOG_INFO, f)

/* lib/igt_core.h: checks */

#define igt_assert(expr) \
	do { \
		if (!(expr)) \
			__igt_fail_assert(IGT_LOG_DOMAIN, __FILE__, __LINE__, \
					  __func__, #expr, NULL); \
	} while (0)

#define igt_assert_f(expr, f...) \
	do { \
		if (!(expr)) \
			__igt_fail_assert(IGT_LOG_DOMAIN, __FILE__, __LINE__, \
					  __func__, #expr, f); \
	} while (0)

#define igt_assert_cmpint(n1, cmp, ncmp, n2) \
	do { \
		int __n1 = (n1), __n2 = (n2); \
		if (__n1 cmp __n2) \
			; \
		else \
			__igt_fail_assert(IGT_LOG_DOMAIN, __FILE__, __LINE__, \
					  __func__, #n1 " " #cmp " " #n2, \
					  "error: %d " #ncmp " %d\n", \
					  __n1, __n2); \
	} while (0)

#define igt_assert_cmpuint(n1, cmp, ncmp, n2) \
	do { \
		uint32_t __n1 = (n1), __n2 = (n2); \
		if (__n1 cmp __n2) \
			; \
		else \
			__igt_fail_assert(IGT_LOG_DOMAIN, __FILE__, __LINE__, \
					  __func__, #n1 " " #cmp " " #n2, \
					  "error: %#x " #ncmp " %#x\n", \
					  __n1, __n2); \
	} while (0)

#define igt_assert_cmpu64(n1, cmp, ncmp, n2) \
	do { \
		uint64_t __n1 = (n1), __n2 = (n2); \
		if (__n1 cmp __n2) \
			; \
		else \
			__igt_fail_assert(IGT_LOG_DOMAIN, __FILE__, __LINE__, \
					  __func__, #n1 " " #cmp " " #n2, \
					  "error: %#llx " #ncmp " %#llx\n", \
					  (long long)__n1, (long long)__n2); \
	} while (0)

#define igt_assert_eq(n1, n2) igt_assert_cmpint(n1, ==, !=, n2)
#define igt_assert_eq_u32(n1, n2) igt_assert_cmpuint(n1, ==, !=, n2)
#define igt_assert_eq_u64(n1, n2) igt_assert_cmpu64(n1, ==, !=, n2)
#define igt_assert_neq(n1, n2) igt_assert_cmpint(n1, !=, ==, n2)
#define igt_assert_neq_u32(n1, n2) igt_assert_cmpuint(n1, !=, ==, n2)
#define igt_assert_lte(n1, n2) igt_assert_cmpint(n1, <=, >, n2)
#define igt_assert_lt(n1, n2) igt_assert_cmpint(n1, <, >=, n2)
#define igt_assert_lte_u64(n1, n2) igt_assert_cmpu64(n1, <=, >, n2)
#define igt_assert_lt_u64(n1, n2) igt_assert_cmpu64(n1, <, >=, n2)
#define igt_assert_fd(fd) \
	igt_assert_f((fd) >= 0, "file descriptor " #fd " failed\n")

#define igt_skip_check(E, F...) \
	__igt_skip_check(__FILE__, __LINE__, __func__, E, F)

#define igt_require(expr) \
	do { \
		if (!(expr)) \
			igt_skip_check(#expr, NULL); \
		else \
			igt_debug("Test requirement passed: %s\n", #expr); \
	} while (0)

#define igt_require_f(expr, f...) \
	do { \
		if (!(expr)) \
			igt_skip_check(#expr, f); \
		else \
			igt_debug("Test requirement passed: %s\n", #expr); \
	} while (0)

#define igt_require_fd(fd) \
	igt_require_f((fd) >= 0, "file descriptor " #fd " failed\n")

/* lib/igt_core.h: child processes */

bool __igt_fork(void);
void igt_waitchildren(void);
#define igt_fork(child, num_children) \
	for (int child = 0; child < (num_children); child++) \
		for (; __igt_fork(); exit(0))

/* lib/ioctl_wrappers.h */

/*
 * IGT's igt_ioctl is a data symbol, a pointer to drmIoctl() unless a test
 * swaps it: a plain pointer in IGT 1.27, thread-local from IGT 2.x on. A
 * program that names it takes a copy relocation of the one shape, and
 * jumps to address 0 or fails to link against the other libigt. Naming
 * drmIoctl() directly, what igt_ioctl points to, takes no data symbol
 * from libigt, and one binary runs on either.
 */
#define igt_ioctl drmIoctl
void gem_close(int fd, uint32_t handle);

static inline uint64_t to_user_pointer(const void *ptr)
{
	return (uintptr_t)ptr;
}

/* lib/drmtest.h */

#define ARRAY_SIZE(arr) (sizeof(arr) / sizeof(arr[0]))

#define do_ioctl(fd, ioc, ioc_data) \
	do { \
		igt_assert_eq(igt_ioctl((fd), (ioc), (ioc_data)), 0); \
		errno = 0; \
	} while (0)

#define do_ioctl_err(fd, ioc, ioc_data, err) \
	do { \
		igt_assert_eq(igt_ioctl((fd), (ioc), (ioc_data)), -1); \
		igt_assert_eq(errno, err); \
		errno = 0; \
	} while (0)

#endif /* IGT_CORE_ABI_H */
