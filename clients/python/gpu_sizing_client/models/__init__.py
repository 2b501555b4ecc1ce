""" Contains all the data models used in inputs/outputs """

from .breakdown import Breakdown
from .catalog_change import CatalogChange
from .catalog_version import CatalogVersion
from .checklist_item import ChecklistItem
from .cluster import Cluster
from .collective import Collective
from .collective_algorithm_used import CollectiveAlgorithmUsed
from .collective_calibration import CollectiveCalibration
from .collective_intervals import CollectiveIntervals
from .collective_request import CollectiveRequest
from .collective_request_algorithm import CollectiveRequestAlgorithm
from .collective_request_operation import CollectiveRequestOperation
from .custom_fabric import CustomFabric
from .custom_fabric_kind import CustomFabricKind
from .custom_gpu import CustomGpu
from .custom_gpu_intra_link import CustomGpuIntraLink
from .custom_server import CustomServer
from .customer import Customer
from .efficiency_series import EfficiencySeries
from .estimate import Estimate
from .estimate_calibration import EstimateCalibration
from .estimate_goodput import EstimateGoodput
from .estimate_intervals import EstimateIntervals
from .estimate_request import EstimateRequest
from .explicit_configuration import ExplicitConfiguration
from .fabric import Fabric
from .fabric_comparison import FabricComparison
from .fabric_line import FabricLine
from .fabric_ref import FabricRef
from .fabric_sources import FabricSources
from .fabric_vs_more_gpus import FabricVsMoreGpus
from .field_error import FieldError
from .fixed_layout import FixedLayout
from .fixed_layout_attention_kernel import FixedLayoutAttentionKernel
from .fixed_layout_framework import FixedLayoutFramework
from .fixed_layout_offload import FixedLayoutOffload
from .fixed_layout_recompute import FixedLayoutRecompute
from .fixed_layout_zero_stage import FixedLayoutZeroStage
from .generic_model import GenericModel
from .goodput import Goodput
from .gpu import Gpu
from .gpu_sources import GpuSources
from .health import Health
from .health_checks import HealthChecks
from .hot_spares import HotSpares
from .interval import Interval
from .layout import Layout
from .layout_attention_kernel import LayoutAttentionKernel
from .layout_framework import LayoutFramework
from .layout_offload import LayoutOffload
from .layout_recompute import LayoutRecompute
from .layout_zero_stage import LayoutZeroStage
from .list_fabrics_kind import ListFabricsKind
from .list_quotes_origin import ListQuotesOrigin
from .list_quotes_status import ListQuotesStatus
from .list_sizings_origin import ListSizingsOrigin
from .list_sizings_status import ListSizingsStatus
from .memory import Memory
from .network_advice import NetworkAdvice
from .network_upgrade import NetworkUpgrade
from .nic import Nic
from .node_range import NodeRange
from .pagination_metadata import PaginationMetadata
from .preset import Preset
from .preset_dimensions import PresetDimensions
from .price_change import PriceChange
from .priced_line import PricedLine
from .priced_line_billing import PricedLineBilling
from .problem import Problem
from .problem_field import ProblemField
from .provider import Provider
from .quote import Quote
from .quote_change import QuoteChange
from .quote_change_status import QuoteChangeStatus
from .quote_configuration import QuoteConfiguration
from .quote_network_advice import QuoteNetworkAdvice
from .quote_origin import QuoteOrigin
from .quote_page import QuotePage
from .quote_performance import QuotePerformance
from .quote_performance_intervals import QuotePerformanceIntervals
from .quote_request import QuoteRequest
from .quote_request_support import QuoteRequestSupport
from .quote_request_term import QuoteRequestTerm
from .quote_status import QuoteStatus
from .quote_stock import QuoteStock
from .quote_totals import QuoteTotals
from .ranked_configuration import RankedConfiguration
from .ranked_configuration_calibration import RankedConfigurationCalibration
from .ranked_configuration_intervals import RankedConfigurationIntervals
from .rdma_support import RdmaSupport
from .rdma_support_sources import RdmaSupportSources
from .region import Region
from .reprice_request import RepriceRequest
from .result_layout import ResultLayout
from .revision_change import RevisionChange
from .revision_summary import RevisionSummary
from .series_point import SeriesPoint
from .server import Server
from .server_ref import ServerRef
from .server_sources import ServerSources
from .sizing import Sizing
from .sizing_error import SizingError
from .sizing_origin import SizingOrigin
from .sizing_page import SizingPage
from .sizing_price import SizingPrice
from .sizing_price_billed_by import SizingPriceBilledBy
from .sizing_request import SizingRequest
from .sizing_request_objective import SizingRequestObjective
from .sizing_request_precision import SizingRequestPrecision
from .sizing_request_term import SizingRequestTerm
from .sizing_result import SizingResult
from .sizing_result_excluded import SizingResultExcluded
from .sizing_status import SizingStatus
from .sizing_summary import SizingSummary
from .sizing_summary_origin import SizingSummaryOrigin
from .sizing_summary_status import SizingSummaryStatus
from .stock import Stock
from .stock_change import StockChange
from .stock_view import StockView
from .training import Training
from .training_precision import TrainingPrecision
from .transformer import Transformer
from .what_if_option import WhatIfOption
from .workload import Workload
from .workload_preset import WorkloadPreset
from .workload_summary import WorkloadSummary
from .workload_summary_kind import WorkloadSummaryKind

__all__ = (
    "Breakdown",
    "CatalogChange",
    "CatalogVersion",
    "ChecklistItem",
    "Cluster",
    "Collective",
    "CollectiveAlgorithmUsed",
    "CollectiveCalibration",
    "CollectiveIntervals",
    "CollectiveRequest",
    "CollectiveRequestAlgorithm",
    "CollectiveRequestOperation",
    "Customer",
    "CustomFabric",
    "CustomFabricKind",
    "CustomGpu",
    "CustomGpuIntraLink",
    "CustomServer",
    "EfficiencySeries",
    "Estimate",
    "EstimateCalibration",
    "EstimateGoodput",
    "EstimateIntervals",
    "EstimateRequest",
    "ExplicitConfiguration",
    "Fabric",
    "FabricComparison",
    "FabricLine",
    "FabricRef",
    "FabricSources",
    "FabricVsMoreGpus",
    "FieldError",
    "FixedLayout",
    "FixedLayoutAttentionKernel",
    "FixedLayoutFramework",
    "FixedLayoutOffload",
    "FixedLayoutRecompute",
    "FixedLayoutZeroStage",
    "GenericModel",
    "Goodput",
    "Gpu",
    "GpuSources",
    "Health",
    "HealthChecks",
    "HotSpares",
    "Interval",
    "Layout",
    "LayoutAttentionKernel",
    "LayoutFramework",
    "LayoutOffload",
    "LayoutRecompute",
    "LayoutZeroStage",
    "ListFabricsKind",
    "ListQuotesOrigin",
    "ListQuotesStatus",
    "ListSizingsOrigin",
    "ListSizingsStatus",
    "Memory",
    "NetworkAdvice",
    "NetworkUpgrade",
    "Nic",
    "NodeRange",
    "PaginationMetadata",
    "Preset",
    "PresetDimensions",
    "PriceChange",
    "PricedLine",
    "PricedLineBilling",
    "Problem",
    "ProblemField",
    "Provider",
    "Quote",
    "QuoteChange",
    "QuoteChangeStatus",
    "QuoteConfiguration",
    "QuoteNetworkAdvice",
    "QuoteOrigin",
    "QuotePage",
    "QuotePerformance",
    "QuotePerformanceIntervals",
    "QuoteRequest",
    "QuoteRequestSupport",
    "QuoteRequestTerm",
    "QuoteStatus",
    "QuoteStock",
    "QuoteTotals",
    "RankedConfiguration",
    "RankedConfigurationCalibration",
    "RankedConfigurationIntervals",
    "RdmaSupport",
    "RdmaSupportSources",
    "Region",
    "RepriceRequest",
    "ResultLayout",
    "RevisionChange",
    "RevisionSummary",
    "SeriesPoint",
    "Server",
    "ServerRef",
    "ServerSources",
    "Sizing",
    "SizingError",
    "SizingOrigin",
    "SizingPage",
    "SizingPrice",
    "SizingPriceBilledBy",
    "SizingRequest",
    "SizingRequestObjective",
    "SizingRequestPrecision",
    "SizingRequestTerm",
    "SizingResult",
    "SizingResultExcluded",
    "SizingStatus",
    "SizingSummary",
    "SizingSummaryOrigin",
    "SizingSummaryStatus",
    "Stock",
    "StockChange",
    "StockView",
    "Training",
    "TrainingPrecision",
    "Transformer",
    "WhatIfOption",
    "Workload",
    "WorkloadPreset",
    "WorkloadSummary",
    "WorkloadSummaryKind",
)
