package io.sagaflow.framework.transaction;

import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * Runs an action once the current transaction has committed, or at once outside a transaction: for what others must
 * not see before the data it announces is visible (a cache eviction, a relay's wake-up). A transaction that rolls back
 * runs nothing. The action runs on the committing thread; an exception from it is logged by Spring and does not undo
 * the commit.
 */
public final class AfterCommit {

    private AfterCommit() {}

    /** Runs {@code action} after the current transaction commits, or now if there is none. */
    public static void run(Runnable action) {
        if (TransactionSynchronizationManager.isSynchronizationActive()) {
            TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {
                @Override
                public void afterCommit() {
                    action.run();
                }
            });
        } else {
            action.run();
        }
    }
}
