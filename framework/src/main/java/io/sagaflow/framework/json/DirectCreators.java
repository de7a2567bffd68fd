package io.sagaflow.framework.json;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Constructor;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import tools.jackson.core.Version;
import tools.jackson.databind.BeanDescription;
import tools.jackson.databind.DeserializationConfig;
import tools.jackson.databind.DeserializationContext;
import tools.jackson.databind.JacksonModule;
import tools.jackson.databind.deser.ValueInstantiator;
import tools.jackson.databind.deser.ValueInstantiators;
import tools.jackson.databind.deser.std.StdValueInstantiator;

/**
 * Builds the values Jackson creates through a creator with arguments (every record: events, commands, request
 * bodies) through one method handle per creator, made once, instead of Jackson's own path.
 *
 * <p>Jackson 3 (3.1 to 3.3) calls such a creator with {@code MethodHandle.invokeWithArguments(Object[])}, and the JDK
 * builds a new spreading adapter for every call: it looks up two or three interned {@code MethodType}s and binds a new
 * handle before the constructor runs. That was 1.6 % of the order service's CPU samples at 150 iter/s, more than the
 * constructors themselves, and every service pays it for each event it reads (ADR 0060). Here the adapter is made
 * when the deserializer is, and each value costs one {@code invokeExact}.
 *
 * <p>Only Jackson's standard instantiator with a constructor or static factory as its creator is replaced, and only
 * {@link StdValueInstantiator#createFromObjectWith(DeserializationContext, Object[])}; everything else (default
 * constructors, delegating and scalar creators, the error handling) stays Jackson's. A creator that throws gets the
 * same treatment as in Jackson: the exception is wrapped and handed to the context's problem handlers.
 */
public final class DirectCreators extends JacksonModule {

    @Override
    public String getModuleName() {
        return "sagaflow-direct-creators";
    }

    @Override
    public Version version() {
        return Version.unknownVersion();
    }

    @Override
    public void setupModule(SetupContext context) {
        context.addValueInstantiators(new Instantiators());
    }

    private static final class Instantiators implements ValueInstantiators {

        @Override
        public ValueInstantiator findValueInstantiator(DeserializationConfig config, BeanDescription.Supplier bean) {
            return null;
        }

        @Override
        public ValueInstantiator modifyValueInstantiator(
                DeserializationConfig config, BeanDescription.Supplier bean, ValueInstantiator instantiator) {
            if (instantiator.getClass() != StdValueInstantiator.class) {
                return instantiator; // a subclass or a custom one: it may create values its own way
            }
            StdValueInstantiator standard = (StdValueInstantiator) instantiator;
            if (standard.getWithArgsCreator() == null) {
                return instantiator;
            }
            MethodHandle creator = spreading(standard.getWithArgsCreator().getAnnotated());
            return creator == null ? instantiator : new Direct(standard, creator);
        }

        /** {@code (Object[]) Object} calling {@code member} with the array's elements, or null to leave it to Jackson. */
        private static MethodHandle spreading(Object member) {
            try {
                MethodHandle handle;
                if (member instanceof Constructor<?> constructor) {
                    handle = MethodHandles.lookup().unreflectConstructor(constructor);
                } else if (member instanceof Method method && Modifier.isStatic(method.getModifiers())) {
                    handle = MethodHandles.lookup().unreflect(method);
                } else {
                    return null;
                }
                handle = handle.asFixedArity();
                int arity = handle.type().parameterCount();
                return handle.asType(MethodType.genericMethodType(arity))
                        .asSpreader(Object[].class, arity)
                        .asType(MethodType.methodType(Object.class, Object[].class));
            } catch (IllegalAccessException e) {
                return null; // not accessible from here (Jackson may still reach it): leave it to Jackson
            }
        }
    }

    private static final class Direct extends StdValueInstantiator {

        private static final long serialVersionUID = 1L;

        /** Null only in a copy restored by Java serialization, which then takes Jackson's path. */
        private final transient MethodHandle creator;

        Direct(StdValueInstantiator standard, MethodHandle creator) {
            super(standard);
            this.creator = creator;
        }

        @Override
        public Object createFromObjectWith(DeserializationContext context, Object[] arguments) {
            if (creator == null) {
                return super.createFromObjectWith(context, arguments);
            }
            try {
                return (Object) creator.invokeExact(arguments);
            } catch (Error e) {
                throw e;
            } catch (Throwable e) {
                return context.handleInstantiationProblem(_valueClass, arguments, rewrapCtorProblem(context, e));
            }
        }
    }
}
