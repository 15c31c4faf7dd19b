#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Turn what igt/runner-inner left in OUTDIR into a verdict.

With --igt-json, what igt_runner left there instead (OUTDIR/results.json,
from igt/runner-igt): pass is a pass, skip and notrun a skip, anything
else (fail, crash, timeout, incomplete, abort, warn, dmesg-*) a failure;
"results.json totals: ..." comes before the last line.

Writes OUTDIR/results.xml (JUnit: a testsuite per test executable, a
testcase per subtest) and OUTDIR/summary.txt, prints one line per subtest,
"PASS|FAIL|SKIP test@subtest (secs)", and last "N passed, N failed, N skipped".
Exits 0 iff nothing failed.

The bench's exit status counts too: when it is non-zero although every
subtest passed (a bad kernel log, a timeout), one more failure is reported,
kernel-log@MODULE; when runner-inner left no results at all, bench@boot.
"""

import argparse
import os
import re
import sys
import xml.etree.ElementTree as ET

LOG_LIMIT = 256 * 1024
BENCH_TAIL_LINES = 80

# Characters XML 1.0 cannot carry, even escaped
XML_INVALID = re.compile('[^\x09\x0a\x0d\x20-\ud7ff\ue000-\ufffd]')


class Case:
    def __init__(self, test, subtest, result, status=None, msecs=0,
                 log='', message=''):
        self.test = test
        self.subtest = subtest
        self.result = result
        self.status = status
        self.secs = msecs / 1000.0
        self.log = log
        self.message = message


def read_text(path, limit=LOG_LIMIT):
    try:
        with open(path, 'rb') as f:
            data = f.read()
    except OSError:
        return ''
    text = data.decode('utf-8', errors='replace')
    if len(text) > limit:
        text = '[... %d bytes cut ...]\n' % (len(text) - limit) + \
            text[-limit:]
    return XML_INVALID.sub('?', text)


def read_rows(path, width):
    rows = []
    try:
        with open(path, encoding='utf-8', errors='replace') as f:
            for line in f:
                fields = line.rstrip('\n').split('\t')
                if len(fields) == width:
                    rows.append(fields)
    except OSError:
        return None
    return rows


def message_for(result, status, log):
    lines = log.splitlines()
    if result == 'pass':
        return ''
    if result == 'skip':
        for i, line in enumerate(lines):
            if line.startswith('Test requirement:'):
                why = lines[i + 1] if i + 1 < len(lines) else ''
                if why and not why.startswith(('Last errno', 'Subtest')):
                    return '%s (%s)' % (line, why)
                return line
        return 'skipped'
    if 'TIMEOUT:' in log:
        return 'timed out'
    if status == -1:
        return lines[0] if lines else 'could not run'
    if status is not None and status > 128:
        what = 'killed by signal %d' % (status - 128)
    else:
        what = 'exit status %s' % status
    for line in lines:
        if 'Failed assertion:' in line:
            return '%s: %s' % (what, line.split('CRITICAL: ', 1)[-1])
    return what


def collect(outdir):
    """Return the cases, or None when runner-inner left no results."""
    results = read_rows(os.path.join(outdir, 'results'), 5)
    plan = read_rows(os.path.join(outdir, 'plan'), 2)
    if results is None:
        return None

    cases = {}
    for test, subtest, result, status, msecs in results:
        log = read_text(os.path.join(outdir, 'logs',
                                     '%s@%s.log' % (test, subtest)))
        status = int(status)
        if result not in ('pass', 'skip'):
            result = 'fail'
        cases[(test, subtest)] = Case(test, subtest, result, status,
                                      int(msecs), log,
                                      message_for(result, status, log))

    ordered = []
    for test, subtest in plan or []:
        key = (test, subtest)
        if key in cases:
            ordered.append(cases.pop(key))
            continue
        log = read_text(os.path.join(outdir, 'logs',
                                     '%s@%s.log' % key))
        ordered.append(Case(test, subtest, 'fail', log=log,
                            message='no result: the bench stopped first'))
    ordered.extend(cases.values())
    return ordered


# IGT runner results (results.json) as ours: what is not a plain pass or
# skip fails. "warn" is a subtest that said SUCCESS but wrote warnings (or
# got another subtest's output, in multiple mode): counted as a failure,
# like dmesg-warn.
IGT_RESULTS = {'pass': 'pass', 'skip': 'skip', 'notrun': 'skip'}


def misattributed(entry, subtest, stdout):
    """Whether a "warn" is only igt_runner's misattribution of output.

    In multiple mode igt_runner (1.27.1 and 2.5 libigt alike) may give a
    subtest that said SUCCESS an "err" that is a slice of the program's
    standard output, of the length of the subtest's own output, and call
    that a warning. Such a slice is no output of the subtest's: the
    subtest passed if it said so and every line of its err (the first and
    last maybe part of one) is a line the program's subtests wrote to
    standard output.
    """
    err = entry.get('err', '')
    if ('Subtest %s: SUCCESS' % subtest) not in entry.get('out', '') or \
            not err or ('Starting subtest: %s\n' % subtest) in err:
        return False
    # results.json does not keep the subtests in the order they ran, and
    # the slice may be pieces: line by line, the first and last ones cut
    lines = stdout.split('\n')
    cut = err.split('\n')
    return all(any(part in line for line in lines)
               for part in (cut[0], cut[-1])) and \
        all(line in lines for line in cut[1:-1])


def collect_json(outdir):
    """The cases of igt_runner's results.json, with its totals, or None."""
    import json

    try:
        with open(os.path.join(outdir, 'results.json'),
                  encoding='utf-8', errors='replace') as f:
            data = json.load(f)
    except (OSError, ValueError):
        return None, None

    tests = data.get('tests', {})
    stdout = {}
    for name, entry in tests.items():
        test = name.split('@')[1] if '@' in name else name
        stdout[test] = stdout.get(test, '') + entry.get('out', '')

    cases = []
    for name, entry in tests.items():
        _, test, subtest = (name.split('@', 2) + ['', ''])[:3]
        igt_result = entry.get('result', 'incomplete')
        result = IGT_RESULTS.get(igt_result, 'fail')
        if igt_result == 'warn' and misattributed(entry, subtest,
                                                  stdout[test]):
            result = 'pass'
            igt_result = 'warn, but only for output of other subtests'
        times = entry.get('time', {})
        secs = max(0.0, times.get('end', 0) - times.get('start', 0))
        log = XML_INVALID.sub('?', ''.join(
            entry.get(k, '') for k in ('igt-version', 'out', 'err')) +
            '\n--- kernel log while it ran ---\n' + entry.get('dmesg', ''))
        message = 'igt_runner: ' + igt_result if igt_result != 'pass' else ''
        cases.append(Case(test, subtest, result, None, secs * 1000, log,
                          message))
    totals = data.get('totals', {})
    total = totals.get('root', totals.get('', {}))
    return cases, ', '.join('%s %d' % (k, v) for k, v in
                            sorted(total.items()) if v)


def bench_verdict(outdir, status):
    """Say why the bench failed, after the exit codes of tests/uml/run."""
    why = {124: 'the bench timed out',
           125: 'the kernel log shows reports'}.get(
               status, 'bench exit status %d' % status)
    info = read_text(os.path.join(outdir, 'info'))
    for line in info.splitlines():
        if line.startswith('QAIC_RUN=') and line != 'QAIC_RUN=':
            why += '; kernel log in %s/dmesg.txt' % line[len('QAIC_RUN='):]
    return why


def bench_tail(outdir):
    log = read_text(os.path.join(outdir, 'bench.log'))
    return '\n'.join(log.splitlines()[-BENCH_TAIL_LINES:])


def write_junit(path, cases):
    suites = {}
    root = ET.Element('testsuites', name='qaic-igt')
    for case in cases:
        suite = suites.get(case.test)
        if suite is None:
            suite = ET.SubElement(root, 'testsuite', name=case.test)
            suites[case.test] = suite
        tc = ET.SubElement(suite, 'testcase', classname='igt.' + case.test,
                           name=case.subtest, time='%.3f' % case.secs)
        if case.result == 'fail':
            ET.SubElement(tc, 'failure', message=case.message).text = \
                case.log
        elif case.result == 'skip':
            ET.SubElement(tc, 'skipped', message=case.message).text = \
                case.log
        else:
            ET.SubElement(tc, 'system-out').text = case.log

    for name, suite in suites.items():
        mine = [c for c in cases if c.test == name]
        suite.set('tests', str(len(mine)))
        suite.set('failures', str(sum(c.result == 'fail' for c in mine)))
        suite.set('skipped', str(sum(c.result == 'skip' for c in mine)))
        suite.set('errors', '0')
        suite.set('time', '%.3f' % sum(c.secs for c in mine))

    if hasattr(ET, 'indent'):  # Python 3.9 and later
        ET.indent(root)
    ET.ElementTree(root).write(path, encoding='utf-8', xml_declaration=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('outdir')
    parser.add_argument('--module', required=True)
    parser.add_argument('--bench-status', type=int, required=True)
    parser.add_argument('--igt-json', action='store_true',
                        help="take the results of igt_runner's "
                        'results.json in OUTDIR')
    args = parser.parse_args()

    totals = None
    if args.igt_json:
        cases, totals = collect_json(args.outdir)
    else:
        cases = collect(args.outdir)
    if cases is None:
        cases = [Case('bench', 'boot', 'fail', log=bench_tail(args.outdir),
                      message='no results: ' +
                      bench_verdict(args.outdir, args.bench_status))]
    elif args.bench_status != 0 and \
            not any(c.result == 'fail' for c in cases):
        cases.append(Case('kernel-log', args.module, 'fail',
                          log=bench_tail(args.outdir),
                          message=bench_verdict(args.outdir,
                                                args.bench_status)))

    write_junit(os.path.join(args.outdir, 'results.xml'), cases)

    counts = {'pass': 0, 'fail': 0, 'skip': 0}
    lines = []
    for case in cases:
        counts[case.result] += 1
        note = ' [%s]' % case.message if case.result == 'pass' and \
            case.message else ''
        lines.append('%s %s@%s (%.2fs)%s' % (case.result.upper(), case.test,
                                            case.subtest, case.secs, note))
    if args.bench_status != 0 and \
            not any(c.test == 'kernel-log' for c in cases):
        # Not hidden behind the failures: with --module upstream a WARN or
        # a hung task of upstream's own code is a finding of the run
        lines.append('NOTE: %s (%s module)' %
                     (bench_verdict(args.outdir, args.bench_status),
                      args.module))
    if totals is not None:
        lines.append('results.json totals: %s' % (totals or 'none'))
    lines.append('%d passed, %d failed, %d skipped' %
                 (counts['pass'], counts['fail'], counts['skip']))

    with open(os.path.join(args.outdir, 'summary.txt'), 'w') as f:
        f.write('\n'.join(lines) + '\n')
    sys.stdout.write('\n'.join(lines) + '\n')

    return 0 if counts['fail'] == 0 else 1


if __name__ == '__main__':
    sys.exit(main())
