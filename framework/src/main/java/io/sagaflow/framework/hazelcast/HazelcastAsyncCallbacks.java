package io.sagaflow.framework.hazelcast;

import com.hazelcast.internal.util.ConcurrencyUtil;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinWorkerThread;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Gives Hazelcast a small pool for the callbacks of its futures where it would otherwise start a thread per callback.
 *
 * <p>Hazelcast runs asynchronous callbacks (Jet's event journal reads, {@code submitToKey}, reliable topic reads) on
 * {@code ForkJoinPool.commonPool()}, except when the common pool's parallelism is 1, that is on any machine or
 * container with two CPUs or fewer: then every callback starts a new platform thread. On this project's two-core
 * box that cost the order service a quarter of a core at idle (ADR 0005). Called before a member or client is built;
 * it changes nothing where the common pool is big enough.
 */
public final class HazelcastAsyncCallbacks {

    /** Threads of the replacement pool: callbacks are short, two keep up on two cores. */
    static final int THREADS = 2;

    private static final AtomicBoolean REPLACED = new AtomicBoolean();

    private HazelcastAsyncCallbacks() {}

    /** Replaces the thread-per-callback executor once per JVM; a no-op when the common pool runs them. */
    public static void bound() {
        if (ForkJoinPool.getCommonPoolParallelism() > 1 || !REPLACED.compareAndSet(false, true)) {
            return;
        }
        ConcurrencyUtil.setDefaultAsyncExecutor(new ForkJoinPool(THREADS, HazelcastAsyncCallbacks::worker, null, true));
    }

    /** Whether callbacks run on a bounded pool in this JVM. */
    public static boolean bounded() {
        return ForkJoinPool.getCommonPoolParallelism() > 1 || REPLACED.get();
    }

    private static ForkJoinWorkerThread worker(ForkJoinPool pool) {
        ForkJoinWorkerThread thread = ForkJoinPool.defaultForkJoinWorkerThreadFactory.newThread(pool);
        thread.setName("hz-async-callback-" + thread.getPoolIndex());
        thread.setDaemon(true);
        return thread;
    }
}
