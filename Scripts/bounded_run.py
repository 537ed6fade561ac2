"""One run of a command on one input, for the agreement scripts, bounded by the CPU time it
spends rather than by the clock: a reader that spins is stopped by its CPU limit (SIGXCPU) and
one that blocks by a wall limit ten times longer. The clock alone called a reader "hung" when
the machine was busy: in the test command the agreements run beside the browser passes, and
`juke article` on one of pypdf's PDFs passed a 60-second clock with two full test runs beside it.
"""
import signal
import subprocess


class Hang(Exception):
    """The command spun past its CPU limit, or waited ten times as long on the clock."""


def run(args, cpu_seconds, **kwargs):
    """subprocess.run(args, **kwargs) with at most `cpu_seconds` of CPU for the command (each
    program it starts has as much of its own); raises Hang past it."""

    # util-linux's prlimit sets the limit and execs the command (a preexec_fn would be unsafe:
    # the scripts run commands from several threads at once).
    limited = ["prlimit", f"--cpu={cpu_seconds}:{cpu_seconds + 1}", "--", *args]
    try:
        result = subprocess.run(limited, timeout=cpu_seconds * 10, **kwargs)
    except subprocess.TimeoutExpired as expired:
        raise Hang() from expired
    if result.returncode in (-signal.SIGXCPU, -signal.SIGKILL):
        raise Hang()
    return result
