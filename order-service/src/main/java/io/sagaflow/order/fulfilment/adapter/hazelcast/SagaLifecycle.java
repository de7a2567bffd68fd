package io.sagaflow.order.fulfilment.adapter.hazelcast;

import com.hazelcast.core.HazelcastInstance;
import io.sagaflow.order.fulfilment.application.SagaRunner;
import org.springframework.context.SmartLifecycle;

/** Starts this replica's part of the saga (its runner, its deadline listener, the job if absent) and stops it. */
public class SagaLifecycle implements SmartLifecycle {

    /** Starts before the saga feed and stops after it. */
    public static final int PHASE = 0;

    private final HazelcastInstance member;
    private final SagaRunner runner;
    private final HazelcastSagaDeadlines deadlines;
    private final int parallelism;
    private volatile boolean running;

    public SagaLifecycle(
            HazelcastInstance member, SagaRunner runner, HazelcastSagaDeadlines deadlines, int parallelism) {
        this.member = member;
        this.runner = runner;
        this.deadlines = deadlines;
        this.parallelism = parallelism;
    }

    @Override
    public void start() {
        deadlines.start();
        SagaJob.start(member, runner, parallelism);
        running = true;
    }

    @Override
    public void stop() {
        running = false;
        deadlines.stop();
        SagaJob.stop(member);
        runner.close();
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    @Override
    public int getPhase() {
        return PHASE;
    }
}
