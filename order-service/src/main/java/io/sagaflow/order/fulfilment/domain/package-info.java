/** The saga's definition: its state, the messages it reacts to, the facts it records, all pure Java. */
package io.sagaflow.order.fulfilment.domain;
