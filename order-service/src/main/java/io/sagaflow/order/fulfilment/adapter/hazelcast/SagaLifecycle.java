package io.sagaflow.order.fulfilment.adapter.hazelcast;

import com.hazelcast.core.HazelcastInstance;
import io.sagaflow.order.fulfilment.adapter.postgres.SagaQueries;
import io.sagaflow.order.fulfilment.application.SagaRunner;
import org.springframework.context.SmartLifecycle;

/** Starts this replica's part of the saga (its runner, its deadline listener, the job if absent) and stops it. */
public class SagaLifecycle implements SmartLifecycle {

    /** Starts before the saga feed and stops after it. */
    public static final int PHASE = 0;

    private final HazelcastInstance member;
    private final SagaRunner runner;
    private final HazelcastSagaDeadlines deadlines;
    private final SagaJob.Settings settings;
    private final SagaQueries sagas;
    private volatile boolean running;

    public SagaLifecycle(
            HazelcastInstance member,
            SagaRunner runner,
            HazelcastSagaDeadlines deadlines,
            SagaQueries sagas,
            SagaJob.Settings settings) {
        this.sagas = sagas;
        this.member = member;
        this.runner = runner;
        this.deadlines = deadlines;
        this.settings = settings;
    }

    @Override
    public void start() {
        deadlines.start();
        // Timers live in memory: after the whole cluster restarted, the running sagas' timers come back from the
        // view (arming an existing timer again changes nothing).
        for (SagaQueries.RunningSaga saga : sagas.running()) {
            deadlines.arm(saga.sagaId(), saga.deadline());
        }
        SagaJob.start(member, runner, settings);
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
