import type {
  AlertsReply,
  BulkAddReply,
  BulkRemoveReply,
  CheckMonitoredEntityReply,
  ClientList,
  ClientListDeleteReply,
  ClientListEntriesReply,
  MonitoredEntitiesReply,
  MonitoredEntity,
  MonitoringAlert,
  MonitoringSettings,
  MonitoringStats,
  MonitoringStatus,
  NewMonitoredEntity,
} from '@vigil/proto';
import { gatewayApi } from '../api/gateway-api.js';

/**
 * Ongoing monitoring and client lists (spec §7 "Monitoring" and "Client lists"). A change to an
 * entity, an alert or a list can move the stat cards, the alerts and the list counters, so every
 * mutation invalidates the one `Monitoring` tag (and `ClientLists` where lists change).
 */
export const monitoringApi = gatewayApi.injectEndpoints({
  endpoints: (build) => ({
    getMonitoringStats: build.query<{ stats: MonitoringStats }, void>({
      query: () => '/api/monitoring/stats',
      providesTags: ['Monitoring'],
    }),
    getMonitoredEntities: build.query<MonitoredEntitiesReply, { status?: MonitoringStatus } | void>({
      query: (filter) => ({ url: '/api/monitoring/entities', params: { limit: 500, ...(filter ?? {}) } }),
      providesTags: ['Monitoring'],
    }),
    addMonitoredEntity: build.mutation<MonitoredEntity, NewMonitoredEntity>({
      query: (body) => ({ url: '/api/monitoring/entities', method: 'POST', body }),
      invalidatesTags: ['Monitoring'],
    }),
    bulkAddMonitoredEntities: build.mutation<BulkAddReply, { entities: NewMonitoredEntity[] }>({
      query: (body) => ({ url: '/api/monitoring/bulk', method: 'POST', body }),
      invalidatesTags: ['Monitoring'],
    }),
    bulkRemoveMonitoredEntities: build.mutation<BulkRemoveReply, { entityIds: string[] }>({
      query: (body) => ({ url: '/api/monitoring/bulk/remove', method: 'POST', body }),
      invalidatesTags: ['Monitoring'],
    }),
    setMonitoringStatus: build.mutation<MonitoredEntity, { id: string; monitoring_status: MonitoringStatus }>({
      query: ({ id, monitoring_status }) => ({
        url: `/api/monitoring/entities/${encodeURIComponent(id)}`,
        method: 'PUT',
        body: { monitoring_status },
      }),
      invalidatesTags: ['Monitoring'],
    }),
    deleteMonitoredEntity: build.mutation<{ id: string; deleted: true }, string>({
      query: (id) => ({ url: `/api/monitoring/entities/${encodeURIComponent(id)}`, method: 'DELETE' }),
      invalidatesTags: ['Monitoring'],
    }),
    checkMonitoredEntity: build.mutation<CheckMonitoredEntityReply, string>({
      query: (id) => ({ url: `/api/monitoring/entities/${encodeURIComponent(id)}/check`, method: 'POST' }),
      invalidatesTags: ['Monitoring', 'ClientLists'],
    }),
    getMonitoringAlerts: build.query<AlertsReply, { acknowledged?: boolean } | void>({
      query: (filter) => ({ url: '/api/monitoring/alerts', params: { limit: 500, ...(filter ?? {}) } }),
      providesTags: ['Monitoring'],
    }),
    acknowledgeMonitoringAlert: build.mutation<MonitoringAlert, string>({
      query: (id) => ({ url: `/api/monitoring/alerts/${encodeURIComponent(id)}/acknowledge`, method: 'POST' }),
      invalidatesTags: ['Monitoring'],
    }),
    getMonitoringSettings: build.query<{ settings: MonitoringSettings }, void>({
      query: () => '/api/monitoring/settings',
      providesTags: ['Monitoring'],
    }),
    updateMonitoringSettings: build.mutation<{ settings: MonitoringSettings }, Partial<MonitoringSettings>>({
      query: (body) => ({ url: '/api/monitoring/settings', method: 'PUT', body }),
      invalidatesTags: ['Monitoring'],
    }),
    uploadClientList: build.mutation<ClientList, { file: File; name: string; description?: string }>({
      query: ({ file, name, description }) => {
        const body = new FormData();
        body.append('name', name);
        if (description) body.append('description', description);
        body.append('file', file);
        return { url: '/api/client-lists/upload-csv', method: 'POST', body };
      },
      invalidatesTags: ['ClientLists', 'Monitoring'],
    }),
    deleteClientList: build.mutation<ClientListDeleteReply, string>({
      query: (id) => ({ url: `/api/client-lists/${encodeURIComponent(id)}`, method: 'DELETE' }),
      invalidatesTags: ['ClientLists', 'Monitoring'],
    }),
    getClientListEntries: build.query<ClientListEntriesReply, { id: string; search?: string }>({
      query: ({ id, search }) => ({
        url: `/api/client/lists/${encodeURIComponent(id)}/entries`,
        params: { limit: 500, ...(search ? { search } : {}) },
      }),
      providesTags: ['ClientLists'],
    }),
  }),
});

export const {
  useGetMonitoringStatsQuery,
  useGetMonitoredEntitiesQuery,
  useAddMonitoredEntityMutation,
  useBulkAddMonitoredEntitiesMutation,
  useBulkRemoveMonitoredEntitiesMutation,
  useSetMonitoringStatusMutation,
  useDeleteMonitoredEntityMutation,
  useCheckMonitoredEntityMutation,
  useGetMonitoringAlertsQuery,
  useAcknowledgeMonitoringAlertMutation,
  useGetMonitoringSettingsQuery,
  useUpdateMonitoringSettingsMutation,
  useUploadClientListMutation,
  useDeleteClientListMutation,
  useGetClientListEntriesQuery,
} = monitoringApi;
