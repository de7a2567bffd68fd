/** The order fulfilment saga: reserve stock, charge payment, confirm; compensate on failure or deadline. */
package io.sagaflow.order.fulfilment;
