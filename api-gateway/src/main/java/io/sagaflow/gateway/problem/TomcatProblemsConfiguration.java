package io.sagaflow.gateway.problem;

import io.sagaflow.tomcat.ProblemErrorReports;
import org.springframework.boot.tomcat.TomcatContextCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * What Tomcat refuses before the gateway's filters see it (a URI holding {@code %00}), answered as a problem like
 * everything else the gateway refuses, not as Tomcat's HTML page (ADR 0104), as the services answer it.
 */
@Configuration(proxyBeanMethods = false)
class TomcatProblemsConfiguration {

    @Bean
    TomcatContextCustomizer problemErrorReports() {
        return ProblemErrorReports::install;
    }
}
