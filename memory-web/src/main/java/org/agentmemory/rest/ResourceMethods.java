package org.agentmemory.rest;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;

/**
 * Where a resource method's annotations are: the class the container calls may be a generated subclass (a CDI or
 * fault-tolerance proxy) whose overriding method and class carry no annotations, so filters that read them look up
 * the class hierarchy.
 */
public final class ResourceMethods {

    private ResourceMethods() {}

    /**
     * @param resourceClass the class the container calls
     * @param method        the resource method
     * @return the declarations of {@code method} from {@code resourceClass} up to (not including) {@code Object},
     *         nearest first
     */
    public static List<Method> declarations(Class<?> resourceClass, Method method) {
        List<Method> declared = new ArrayList<>(2);
        for (Class<?> k : classes(resourceClass)) {
            try {
                declared.add(k.getDeclaredMethod(method.getName(), method.getParameterTypes()));
            } catch (NoSuchMethodException e) {
                // declared further up
            }
        }
        return declared;
    }

    /**
     * @param resourceClass the class the container calls
     * @return it and its superclasses up to (not including) {@code Object}, nearest first
     */
    public static List<Class<?>> classes(Class<?> resourceClass) {
        List<Class<?>> classes = new ArrayList<>(2);
        for (Class<?> k = resourceClass; k != null && k != Object.class; k = k.getSuperclass()) {
            classes.add(k);
        }
        return classes;
    }
}
