package io.sagaflow.framework.architecture.violations.impure.domain;

import org.springframework.jdbc.core.JdbcTemplate;

/** Breaks the rule on purpose: domain code reaching for JDBC. */
public class ImpureDecider {
    JdbcTemplate jdbc;
}
