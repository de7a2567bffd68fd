/** The customer aggregate as a pure decider: its commands, state, rules and refusals. */
package io.sagaflow.account.customer.domain;
