package io.sagaflow.framework.hazelcast;

import static org.assertj.core.api.Assertions.assertThat;

import com.hazelcast.internal.util.ConcurrencyUtil;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class HazelcastAsyncCallbacksTest {

    @Test
    void callbacksRunOnAFewPooledThreads_neverOnAThreadEach() throws InterruptedException {
        HazelcastAsyncCallbacks.bound();
        Set<Thread> threads = ConcurrentHashMap.newKeySet();
        CountDownLatch done = new CountDownLatch(500);
        for (int i = 0; i < 500; i++) {
            ConcurrencyUtil.getDefaultAsyncExecutor().execute(() -> {
                threads.add(Thread.currentThread());
                done.countDown();
            });
        }

        assertThat(done.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(HazelcastAsyncCallbacks.bounded()).isTrue();
        assertThat(threads)
                .hasSizeLessThanOrEqualTo(
                        Math.max(HazelcastAsyncCallbacks.THREADS, ForkJoinPool.getCommonPoolParallelism()));
    }
}
