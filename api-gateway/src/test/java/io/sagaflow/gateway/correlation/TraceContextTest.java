package io.sagaflow.gateway.correlation;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class TraceContextTest {

    private static final String VALID = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";

    @Test
    void aValidTraceparentIsParsed() {
        assertThat(TraceContext.parse(VALID))
                .contains(new TraceContext("4bf92f3577b34da6a3ce929d0e0e4736", "00f067aa0ba902b7", "01"));
    }

    @Test
    void invalidTraceparentsAreRejected() {
        assertThat(TraceContext.parse(null)).isEmpty();
        assertThat(TraceContext.parse("garbage")).isEmpty();
        assertThat(TraceContext.parse(VALID.toUpperCase())).as("upper-case hex").isEmpty();
        assertThat(TraceContext.parse("00-" + "0".repeat(32) + "-00f067aa0ba902b7-01"))
                .as("zero trace id")
                .isEmpty();
        assertThat(TraceContext.parse("00-4bf92f3577b34da6a3ce929d0e0e4736-" + "0".repeat(16) + "-01"))
                .as("zero parent id")
                .isEmpty();
        assertThat(TraceContext.parse(VALID + "-extra"))
                .as("version 00 has four fields")
                .isEmpty();
        assertThat(TraceContext.parse("ff" + VALID.substring(2)))
                .as("version ff")
                .isEmpty();
    }

    @Test
    void aLaterVersionIsReadAsFarAsVersion00Goes() {
        assertThat(TraceContext.parse("01" + VALID.substring(2) + "-future"))
                .hasValueSatisfying(trace -> assertThat(trace.header()).isEqualTo(VALID));
    }

    @Test
    void theNextHopKeepsTraceAndFlags_withANewParent() {
        TraceContext caller = TraceContext.parse(VALID).orElseThrow();

        TraceContext hop = caller.nextHop(new SplittableRandom(7));

        assertThat(hop.traceId()).isEqualTo(caller.traceId());
        assertThat(hop.flags()).isEqualTo("01");
        assertThat(hop.parentId()).hasSize(16).isNotEqualTo(caller.parentId());
        assertThat(TraceContext.parse(hop.header())).contains(hop);
    }

    @Test
    void aNewTraceIsValidAndSampled() {
        TraceContext started = TraceContext.start(new SplittableRandom(1));

        assertThat(TraceContext.parse(started.header())).contains(started);
        assertThat(started.flags()).isEqualTo("01");
    }
}
