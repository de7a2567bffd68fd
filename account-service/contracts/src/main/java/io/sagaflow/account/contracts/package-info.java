/** The account service's published events: records with stable type names, the only part of it other services see. */
package io.sagaflow.account.contracts;
