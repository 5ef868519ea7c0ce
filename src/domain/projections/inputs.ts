// The shapes the read endpoints serve, one item type per endpoint. Every documented field is
// always present (the consumer's templates run with missingkey=error), and properties are
// built in this order so equal data always gives equal bytes.
import type { Environment, Subject } from '../records.ts';

export interface ClusterBlock {
  name: string;
  dns: string;
  environment: Environment;
}

export interface PlatformComponentInput {
  id: string;
  component_path: string;
  component_version: string;
  cluster_env_enabled: boolean;
  depends_on: string[];
  enabled: boolean;
  patches: Record<string, string>;
  cluster: ClusterBlock;
  source: { oci_url: string; oci_tag: string };
}

export interface NamespaceInput {
  id: string;
  labels: Record<string, string>;
  annotations: Record<string, string>;
  cluster: ClusterBlock;
}

export interface RoleBindingInput {
  id: string;
  role: string;
  subjects: Subject[];
  cluster: ClusterBlock;
}

export interface ClusterSummaryInput {
  id: string;
  cluster_name: string;
  cluster_dns: string;
  environment: Environment;
}

export interface InputsDocument<T> {
  inputs: T[];
}
