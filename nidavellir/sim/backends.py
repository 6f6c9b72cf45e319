"""Where the tasks run: in this process, in a pool of processes, or on a Ray cluster.

Every backend yields the tasks' results in task order, with a bounded number of tasks in flight,
so that the records are written in the same order and memory stays flat however many games are
asked. A task's result depends only on the job and the task, so the records are the same whatever
the backend, the number of workers or the size of the chunks.
"""
from __future__ import annotations

import multiprocessing
import os
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor
from typing import Any, Protocol

from nidavellir.errors import NidavellirError

from . import worker
from .worker import Done, Job, Task


class BackendError(NidavellirError):
    """A backend that cannot run (Ray not installed, no cluster at the address)."""


class Backend(Protocol):
    workers: int               # tasks it runs at once
    readers: int | None        # processes of this machine it ran (None: a cluster's; use every core)
    def run(self, job: Job, tasks: Iterable[Task]) -> Iterator[Done]: ...
    def close(self) -> None: ...


def cores() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


class Inline:
    """One worker: this process."""
    workers = 1
    readers: int | None = 1

    def run(self, job: Job, tasks: Iterable[Task]) -> Iterator[Done]:
        for task in tasks:
            yield worker.run(job, task)

    def close(self) -> None:
        pass


class Pool:
    """A pool of `workers` processes: forked from this process while it runs no other thread (the
    workers then start at once, with the rules already loaded), else started by a fork server
    (or spawned where there is none), which is safe with threads."""

    def __init__(self, workers: int):
        self.workers = workers
        self.readers: int | None = workers
        self.executor: ProcessPoolExecutor | None = None

    def run(self, job: Job, tasks: Iterable[Task]) -> Iterator[Done]:
        self.executor = ProcessPoolExecutor(self.workers, mp_context=start_method(),
                                            initializer=worker.start, initargs=(job,))
        executor = self.executor
        yield from _in_order(tasks, 3 * self.workers, lambda task: executor.submit(worker.run_pooled, task),
                             lambda future: future.result())

    def close(self) -> None:
        if self.executor is not None:
            self.executor.shutdown(wait=True, cancel_futures=True)
            self.executor = None


class Ray:
    """Tasks on a Ray cluster: `address` is `auto` (the cluster this machine belongs to), an
    address (`ray://head:10001`, `head:6379`), `local` (start one here with `workers` CPUs), or
    None when the caller has already called `ray.init`."""

    def __init__(self, address: str | None, workers: int | None = None):
        try:
            import ray  # type: ignore[import-not-found,unused-ignore]  # (an optional extra)
        except ImportError:
            raise BackendError('--ray needs Ray: pip install "nidavellir[ray]"') from None
        self.ray: Any = ray
        self.started = False
        self.readers: int | None = None
        if not ray.is_initialized():
            try:
                if address in (None, "local"):
                    ray.init(num_cpus=workers, include_dashboard=False, log_to_driver=False)
                else:
                    ray.init(address=address, log_to_driver=False)
            except (ConnectionError, RuntimeError, ValueError) as err:
                hint = " (start one with `ray start --head`, or use --ray local)" if address == "auto" else ""
                raise BackendError(f"cannot reach a Ray cluster at {address}: {err}{hint}") from None
            self.started = True
        self.workers = max(1, int(self.ray.cluster_resources().get("CPU", 1)))

    def run(self, job: Job, tasks: Iterable[Task]) -> Iterator[Done]:
        ray = self.ray
        remote = ray.remote(_ray_task)
        shared = ray.put(job)  # (sent to the object store once, not with every task)
        yield from _in_order(tasks, 3 * self.workers, lambda task: remote.remote(shared, task), ray.get)

    def close(self) -> None:
        if self.started:
            self.ray.shutdown()
            self.started = False


def start_method() -> Any:
    """The multiprocessing context of a pool of this process (see Pool)."""
    methods = multiprocessing.get_all_start_methods()
    if "fork" in methods and _single_threaded():
        return multiprocessing.get_context("fork")
    if "forkserver" in methods:
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload(["nidavellir.sim.worker"])
        return context
    return multiprocessing.get_context("spawn")


def _single_threaded() -> bool:
    """Whether this process runs one thread, native ones included (Linux: /proc/self/task)."""
    try:
        return len(os.listdir("/proc/self/task")) == 1
    except OSError:
        return False


def _in_order(tasks: Iterable[Task], most: int, submit: Callable[[Task], Any],
              wait: Callable[[Any], Done]) -> Iterator[Done]:
    """Results in task order, with at most `most` tasks submitted and not yet taken."""
    window: deque[Any] = deque()
    todo = iter(tasks)
    for task in todo:
        window.append(submit(task))
        if len(window) >= most:
            break
    while window:
        done = wait(window.popleft())
        following = next(todo, None)
        if following is not None:
            window.append(submit(following))
        yield done


def _ray_task(job: Job, task: Task) -> Done:
    return worker.run(job, task)


def backend(jobs: int | None, ray: str | None) -> Backend:
    """The backend the command line asks for: Ray with `--ray`, else `jobs` processes (default
    every core; one: this process)."""
    if ray is not None:
        return Ray(ray, jobs)
    n = jobs or cores()
    return Inline() if n == 1 else Pool(n)


def chunk_size(games: int, workers: int) -> int:
    """Games per task: small enough to share the work out evenly and show progress, large enough
    that a task's overhead is nothing (at most 20; any size gives the same records)."""
    return max(1, min(20, games // (8 * workers) or 1))


__all__ = ["Backend", "BackendError", "Inline", "Pool", "Ray", "backend", "chunk_size", "cores"]
