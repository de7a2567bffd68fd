/** The account service. */
package io.sagaflow.account;
