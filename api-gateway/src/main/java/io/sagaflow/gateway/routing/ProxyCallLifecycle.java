package io.sagaflow.gateway.routing;

import org.springframework.cloud.client.ServiceInstance;
import org.springframework.cloud.client.loadbalancer.CompletionContext;
import org.springframework.cloud.client.loadbalancer.LoadBalancerLifecycle;
import org.springframework.cloud.client.loadbalancer.Request;
import org.springframework.cloud.client.loadbalancer.RequestDataContext;
import org.springframework.cloud.client.loadbalancer.Response;
import org.springframework.cloud.client.loadbalancer.ResponseData;

/**
 * A load-balancer lifecycle of the gateway's proxied calls (the {@code lb()} filter's request data, the chosen
 * instance), which does nothing at any step it does not override.
 */
interface ProxyCallLifecycle extends LoadBalancerLifecycle<RequestDataContext, ResponseData, ServiceInstance> {

    @Override
    default boolean supports(Class requestContextClass, Class responseClass, Class serverTypeClass) {
        return RequestDataContext.class.isAssignableFrom(requestContextClass)
                && ResponseData.class.isAssignableFrom(responseClass)
                && ServiceInstance.class.isAssignableFrom(serverTypeClass);
    }

    @Override
    default void onStart(Request<RequestDataContext> request) {}

    @Override
    default void onStartRequest(Request<RequestDataContext> request, Response<ServiceInstance> chosen) {}

    @Override
    default void onComplete(CompletionContext<ResponseData, ServiceInstance, RequestDataContext> completion) {}
}
